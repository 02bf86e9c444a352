import { z } from "zod";
import { AmountTextSchema, CURRENCY } from "../protocol/amount";
import {
  dujiaoPath,
  DUJIAO_MAX_PAGE_SIZE,
  DujiaoCategoriesSchema,
  DujiaoCreateOrderAnswerSchema,
  DujiaoOrderDetailSchema,
  DujiaoPingSchema,
  type DujiaoOrderDetail,
} from "../protocol/dujiao-next";
import type { LanguageText } from "../protocol/language";
import { dujiaoCall, theirCode, type DujiaoEndpoint } from "./dujiao-next-transport";
import { allPages } from "./upstream-answer";
import { UpstreamError, upstreamTimeoutMs, type UpstreamClient, type UpstreamCreateOrder, type UpstreamOrder } from "./upstream-client";

// Issue 37.3 (decision 0092): a Dujiao-Next supplier behind the same client the
// purchase flow, the import and the ping use (upstream-client.ts), so that
// sources per SKU, failover, polling and callbacks work unchanged. Their
// answers are decoded as their Go client decodes them (lib/protocol/dujiao-next.ts)
// and translated into ours: states, the delivered payload, their i18n maps.

/** Their ids and our number limits: downstream_order_no and trace_id up to 64 characters. */
export const DUJIAO_MAX_ORDER_NO = 64;

// A create answered 200 with ok:false and one of these codes is final (their own
// client's list, procurement_order_service.go); any other ok:false is retried.
const FINAL_CODES = new Set([
  "insufficient_balance",
  "payment_failed",
  "product_unavailable",
  "sku_unavailable",
  "invalid_request",
  "unauthorized",
  "forbidden",
  "duplicate_order",
  "product_out_of_stock",
]);

/** Their order state → ours (their mapCallbackStatus, and refunded/partially_refunded as their buyer reads them). */
export function ourState(theirs: string | null | undefined): UpstreamOrder["status"] {
  const s = (theirs ?? "").trim().toLowerCase();
  if (s === "delivered" || s === "completed" || s === "fulfilled") return "delivered";
  if (s === "canceled" || s === "cancelled" || s === "refunded") return "failed";
  if (s === "partially_refunded") return "partially_refunded";
  return "processing";
}

/** Their language map ({"zh-CN", "zh-TW", "en-US"}) → ours; anything else reaches our checks as it came. */
function text(v: unknown): unknown {
  if (!v || typeof v !== "object" || Array.isArray(v)) return v;
  const m = v as Record<string, unknown>;
  const pick = (...keys: string[]) => keys.map((k) => m[k]).find((x) => typeof x === "string" && x !== "") ?? "";
  return { "zh-CN": pick("zh-CN", "zh-TW", "zh"), en: pick("en-US", "en") };
}

/** One entry of their product list in our product's shape; our schema then checks it (parse-upstream-product.ts). */
function ourProduct(raw: unknown): unknown {
  if (!raw || typeof raw !== "object") return raw;
  const p = raw as Record<string, unknown>;
  const form = p.manual_form_schema as { fields?: unknown } | null | undefined;
  const images = Array.isArray(p.images) ? p.images : [];
  return {
    ...p,
    title: text(p.title),
    description: text(p.description),
    content: text(p.content),
    original_price: p.original_price || undefined,
    // Their form schema is ours only when it lists fields; an empty one is no form.
    manual_form_schema: form && Array.isArray(form.fields) && form.fields.length ? form : undefined,
    delivery_format: "text",
    // Their payload is one key per line (decision 0092).
    delivery_delimiter: "----",
    logo_url: typeof images[0] === "string" ? images[0] : "",
    skus: Array.isArray(p.skus) ? p.skus.map((s) => ({ spec_values: {}, ...(s as object) })) : p.skus,
  };
}

const PageSchema = z.object({ items: z.array(z.unknown()).nullish(), total: z.int().min(0), page_size: z.int().min(1) });
const CNY = (c: string | null | undefined) => c === CURRENCY;

export function dujiaoNextClient(endpoint: DujiaoEndpoint, opts: { timeoutMs?: number } = {}): UpstreamClient {
  const timeoutMs = opts.timeoutMs ?? upstreamTimeoutMs();
  const call = <T>(schema: z.ZodType<T>, method: "GET" | "POST", path: string, body?: object) =>
    dujiaoCall(endpoint, timeoutMs, schema, method, path, body);

  /** Their order view as ours; the number is ours (their view does not carry it; the id came from our create for it). */
  function order(d: DujiaoOrderDetail, downstreamOrderNo: string): UpstreamOrder {
    if (!d.order_id || d.order_id > 2_147_483_647) throw new UpstreamError("invalid", "the upstream's order has no usable order_id");
    if (d.currency && !CNY(d.currency)) throw new UpstreamError("invalid", `the upstream's order is not in ${CURRENCY}`);
    const status = ourState(d.status);
    return {
      order_id: d.order_id,
      order_no: d.order_no ?? "",
      downstream_order_no: downstreamOrderNo,
      status,
      amount: d.amount ?? "",
      ...(status === "delivered" ? { fulfillment: { payload: d.fulfillment?.payload ?? "" } } : {}),
    };
  }

  const client: UpstreamClient = {
    async ping() {
      const p = await call(DujiaoPingSchema, "POST", dujiaoPath("ping"));
      const balance = AmountTextSchema.safeParse(p.balance);
      if (p.ok !== true || !balance.success || !p.user_id) throw new UpstreamError("invalid", "unexpected answer from POST /ping");
      return { ok: true as const, site_name: p.site_name ?? undefined, balance: balance.data, currency: p.currency ?? "" };
    },
    async categories() {
      const c = await call(DujiaoCategoriesSchema, "GET", dujiaoPath("listCategories"));
      return (c.categories ?? []).flatMap((cat) =>
        cat.id
          ? [
              {
                id: cat.id,
                parent_id: cat.parent_id ?? 0,
                slug: cat.slug || `c${cat.id}`,
                name: text(cat.name ?? {}) as LanguageText,
                sort_order: cat.sort_order ?? 0,
              },
            ]
          : [],
      );
    },
    async productsPage(page: number) {
      const p = await call(
        PageSchema,
        "GET",
        `${dujiaoPath("listProducts")}?page=${page}&page_size=${DUJIAO_MAX_PAGE_SIZE}&include_inactive=true`,
      );
      return { items: (p.items ?? []).map(ourProduct), total: p.total, page, page_size: p.page_size };
    },
    allProducts: (maxPages = 1000) => allPages((page) => client.productsPage(page), maxPages),
    createOrder: (body: UpstreamCreateOrder) => createOrder(body),
    getOrder: async (orderId: number, downstreamOrderNo = "") =>
      order(await call(DujiaoOrderDetailSchema, "GET", dujiaoPath("getOrder", orderId)), downstreamOrderNo),
    // Our protocol's extensions (after-sales, catalogue webhook, incremental stock) do not exist there.
    request: () => Promise.reject(new UpstreamError("http", "HTTP 404: not offered by a Dujiao-Next supplier", 404, null)),
  };

  /**
   * One create, the same body on every run. 200 ok:true → the order; 200
   * ok:false with a final code → failed (or refused when no order was made);
   * any other answer is an UpstreamError for run-purchase.ts to judge.
   */
  async function createOrder(body: UpstreamCreateOrder): Promise<UpstreamOrder> {
    if (body.downstream_order_no.length > DUJIAO_MAX_ORDER_NO || (body.trace_id ?? "").length > DUJIAO_MAX_ORDER_NO)
      throw new UpstreamError("http", `order number longer than ${DUJIAO_MAX_ORDER_NO} characters; not sent`, 400, null);
    const send = (callbackUrl: string) =>
      call(DujiaoCreateOrderAnswerSchema, "POST", dujiaoPath("createOrder"), {
        sku_id: body.sku_id,
        quantity: body.quantity,
        ...(body.manual_form_data ? { manual_form_data: body.manual_form_data } : {}),
        downstream_order_no: body.downstream_order_no,
        trace_id: body.trace_id ?? "",
        callback_url: callbackUrl,
      });
    // Their SSRF check refuses a private or loopback callback URL before anything is stored:
    // the same create goes again without one (polling only) rather than failing every order.
    const a = await send(body.callback_url ?? "").catch((err: unknown) => {
      if (err instanceof UpstreamError && err.errorCode === "invalid_callback_url" && body.callback_url) return send("");
      throw err;
    });
    if (a.ok !== true) {
      const raw = a.error_code ?? "";
      const code = FINAL_CODES.has(raw) ? raw : theirCode(raw);
      if (!code || !FINAL_CODES.has(code))
        throw new UpstreamError("invalid", `the upstream did not take the order${code ? ` (${code})` : ""}`);
      if (a.order_id)
        return order({ order_id: a.order_id, order_no: a.order_no, status: "canceled", amount: "" }, body.downstream_order_no);
      throw new UpstreamError("http", `refused (${code})`, 400, code);
    }
    const placed = order({ ...a, refunded_amount: null }, body.downstream_order_no);
    // A repeated number answers the existing order, perhaps delivered already: its keys are read at once.
    return placed.status === "delivered" ? client.getOrder(placed.order_id, body.downstream_order_no) : placed;
  }

  return client;
}
