import { catalogView, categoriesBody, productDetail, productPage, productSyncPage } from "../../catalog-read/catalog-cache";
import { pageBody } from "../../catalog-read/page-cache";
import { AppError, appError } from "../../errors";
import { cancelOrder } from "../../orders/cancel-order";
import { createOrder } from "../../orders/create-order";
import { getOrder } from "../../orders/get-order";
import { DujiaoProductsQuerySchema } from "../../protocol/catalog-query";
import { DUJIAO_ENDPOINTS } from "../../protocol/dujiao-next";
import { DujiaoCreateOrderBodySchema } from "../../protocol/order-schemas";
import { dujiaoOrderCreatedWire, dujiaoOrderReadWire, dujiaoPingWire } from "../../serializers/dujiao-next";
import { getCachedSettings } from "../../settings/get-cached-settings";
import { getAccount } from "../../users/get-account";
import { defineEndpoint, parseIdParam } from "../define-endpoint";
import { jsonText } from "../responses";
import { STREAM_KEYS_ABOVE } from "../../order-read/order-view";
import { orderAnswer } from "../streamed-order";

// Dujiao-Next's docking protocol under Profile U's primary prefix (issue 37.1, decision
// 0090): the same pipeline, keys, services and catalogue as Profile U, signed
// with their headers, answered in the shapes their buyer's Go structs decode
// (lib/serializers/dujiao-next.ts). Errors keep our D1 body, which is theirs.

/** Their statuses where ours differ (upstream_handler.go CreateOrder). */
const DUJIAO_STATUS: Record<string, number> = { insufficient_balance: 402, insufficient_stock: 409 };

function inTheirStatus(err: unknown): unknown {
  if (!(err instanceof AppError) || !(err.code in DUJIAO_STATUS)) return err;
  return new AppError(err.code, DUJIAO_STATUS[err.code], err.publicMessage, err.headers);
}

export const dujiaoPingEndpoint = defineEndpoint({
  ...DUJIAO_ENDPOINTS.ping,
  handler: async (ctx) => {
    const [settings, account] = await Promise.all([getCachedSettings(), getAccount(ctx.credential.userId)]);
    return dujiaoPingWire(settings.siteName, ctx.credential.id, account);
  },
});

/** Their shape is ours: `{ ok, categories }`. */
export const dujiaoCategoriesEndpoint = defineEndpoint({
  ...DUJIAO_ENDPOINTS.listCategories,
  handler: async () => jsonText(categoriesBody(await catalogView("U"))),
});

/** Profile U's pages (its products decode in their structs), with their page size rule. */
export const dujiaoProductsEndpoint = defineEndpoint({
  ...DUJIAO_ENDPOINTS.listProducts,
  query: { U: DujiaoProductsQuerySchema, P: DujiaoProductsQuerySchema },
  handler: async (ctx) => {
    const { page, page_size, include_inactive, updated_after } = ctx.query;
    const view = await catalogView("U", ctx.credential);
    if (updated_after !== undefined) return jsonText(productSyncPage(view, updated_after, page, page_size, include_inactive));
    return jsonText(pageBody(productPage(view, page, page_size, include_inactive)));
  },
});

/** `{ ok, product }`; unknown or delisted → 404 product_not_found, as theirs. */
export const dujiaoProductEndpoint = defineEndpoint({
  ...DUJIAO_ENDPOINTS.getProduct,
  handler: async (ctx) => {
    const view = await catalogView("U", ctx.credential);
    const body = productDetail(view, parseIdParam(ctx.params.id), true);
    if (!body) throw appError("product_not_found", "product not found");
    return jsonText(body);
  },
});

/**
 * Profile U's create with their limits (64 characters) and their repeat rule:
 * the same number with the same sku, quantity and form is the same purchase
 * whatever its trace id or callback URL (request-digest.ts).
 */
export const dujiaoCreateOrderEndpoint = defineEndpoint({
  ...DUJIAO_ENDPOINTS.createOrder,
  body: { U: DujiaoCreateOrderBodySchema, P: DujiaoCreateOrderBodySchema }, // only ever served as U (its prefix)
  handler: async (ctx) => {
    const b = ctx.body;
    try {
      const { order } = await createOrder({
        credential: ctx.credential,
        profile: "U",
        dialect: "dujiao_next",
        input: {
          downstreamOrderNo: b.downstream_order_no,
          skuId: b.sku_id,
          quantity: b.quantity,
          traceId: b.trace_id ?? null,
          callbackUrl: b.callback_url,
          manualFormData: b.manual_form_data ?? null,
        },
      });
      return dujiaoOrderCreatedWire(order);
    } catch (err) {
      throw inTheirStatus(err);
    }
  },
});

export const dujiaoGetOrderEndpoint = defineEndpoint({
  ...DUJIAO_ENDPOINTS.getOrder,
  handler: async (ctx) => {
    // Issue 40.3: a large delivery's payload is streamed (delivery_data is null in their shape).
    const order = await getOrder({ credentialId: ctx.credential.id, orderId: parseIdParam(ctx.params.id), streamAbove: STREAM_KEYS_ABOVE });
    return orderAnswer(dujiaoOrderReadWire(order), order);
  },
});

/** Never cancellable (D23): 409 cancel_not_allowed for an own order, else 404; theirs answers the same codes. */
export const dujiaoCancelOrderEndpoint = defineEndpoint({
  ...DUJIAO_ENDPOINTS.cancelOrder,
  handler: async (ctx) => cancelOrder({ credentialId: ctx.credential.id, orderId: parseIdParam(ctx.params.id) }),
});
