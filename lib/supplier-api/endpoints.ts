import type { EndpointKey } from "../protocol/endpoints";
import type { Endpoint } from "./define-endpoint";
import { listClaimsEndpoint, openClaimEndpoint } from "./endpoints/after-sales";
import { deleteCatalogWebhookEndpoint, getCatalogWebhookEndpoint, putCatalogWebhookEndpoint } from "./endpoints/catalog-webhook";
import { getProductEndpoint, listCategoriesEndpoint, listProductsEndpoint } from "./endpoints/catalog";
import { cancelOrderEndpoint, createOrderEndpoint, readOrderEndpoint } from "./endpoints/orders";
import { pingEndpoint } from "./endpoints/ping";
import { statementEndpoint } from "./endpoints/statement";

/**
 * The handler of every entry of the endpoint table (lib/protocol/endpoints.ts),
 * by its key: the router (./router.ts) serves exactly these. The type refuses
 * a table entry without a handler and a handler without an entry; the router
 * refuses a handler made from another entry (its name differs).
 */
export const HANDLERS = {
  ping: pingEndpoint,
  pingPost: pingEndpoint,
  listCategories: listCategoriesEndpoint,
  listProducts: listProductsEndpoint,
  getProduct: getProductEndpoint,
  createOrder: createOrderEndpoint,
  getOrder: readOrderEndpoint,
  cancelOrder: cancelOrderEndpoint,
  openClaim: openClaimEndpoint,
  listClaims: listClaimsEndpoint,
  getStatement: statementEndpoint,
  getCatalogWebhook: getCatalogWebhookEndpoint,
  putCatalogWebhook: putCatalogWebhookEndpoint,
  deleteCatalogWebhook: deleteCatalogWebhookEndpoint,
} satisfies Record<EndpointKey, Endpoint>;
