import type { DujiaoEndpointKey } from "../protocol/dujiao-next";
import type { EndpointKey } from "../protocol/endpoints";
import type { Endpoint } from "./define-endpoint";
import { listClaimsEndpoint, openClaimEndpoint } from "./endpoints/after-sales";
import { getProductEndpoint, listCategoriesEndpoint, listProductsEndpoint } from "./endpoints/catalog";
import { deleteCatalogWebhookEndpoint, getCatalogWebhookEndpoint, putCatalogWebhookEndpoint } from "./endpoints/catalog-webhook";
import {
  dujiaoCancelOrderEndpoint,
  dujiaoCategoriesEndpoint,
  dujiaoCreateOrderEndpoint,
  dujiaoGetOrderEndpoint,
  dujiaoPingEndpoint,
  dujiaoProductEndpoint,
  dujiaoProductsEndpoint,
} from "./endpoints/dujiao-next";
import { cancelOrderEndpoint, createOrderEndpoint, getOrderEndpoint } from "./endpoints/orders";
import { pingEndpoint } from "./endpoints/ping";
import { getStatementEndpoint } from "./endpoints/statement";

/**
 * The handler of every entry of the endpoint table (lib/protocol/endpoints.ts),
 * by its key: the router (./router.ts) serves exactly these. The table itself
 * lives in lib/protocol, which downstream clients load and which must not
 * import the server; so the entry names its handler here, in a second table
 * of the same keys (decision 0081). Its type refuses a key without a handler
 * and a key the table does not have; the router refuses a handler made from
 * another entry (its name differs); scripts/structure.test.ts refuses a
 * handler under ./endpoints/ that is not named here.
 */
export const HANDLERS: { readonly [K in EndpointKey]: Endpoint } = {
  ping: pingEndpoint,
  pingPost: pingEndpoint, // one handler for GET and POST (the body is ignored)
  listCategories: listCategoriesEndpoint,
  listProducts: listProductsEndpoint,
  getProduct: getProductEndpoint,
  createOrder: createOrderEndpoint,
  getOrder: getOrderEndpoint,
  cancelOrder: cancelOrderEndpoint,
  openClaim: openClaimEndpoint,
  listClaims: listClaimsEndpoint,
  getStatement: getStatementEndpoint,
  getCatalogWebhook: getCatalogWebhookEndpoint,
  putCatalogWebhook: putCatalogWebhookEndpoint,
  deleteCatalogWebhook: deleteCatalogWebhookEndpoint,
};

/** Decision 0090: the handlers of Dujiao-Next's table (lib/protocol/dujiao-next.ts), bound the same way. */
export const DUJIAO_HANDLERS: { readonly [K in DujiaoEndpointKey]: Endpoint } = {
  ping: dujiaoPingEndpoint,
  listCategories: dujiaoCategoriesEndpoint,
  listProducts: dujiaoProductsEndpoint,
  getProduct: dujiaoProductEndpoint,
  createOrder: dujiaoCreateOrderEndpoint,
  getOrder: dujiaoGetOrderEndpoint,
  cancelOrder: dujiaoCancelOrderEndpoint,
};
