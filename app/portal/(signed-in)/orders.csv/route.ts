import { buyerActor } from "@/lib/audit/actor";
import { appError } from "@/lib/errors";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { BuyerOrderFilterSchema, listBuyerOrders } from "@/lib/portal/buyer-orders";
import { exportOrderKeys } from "@/lib/portal/export-order-keys";
import { csvResponse, portalExport, portalKeyExport } from "@/lib/portal-auth/portal-route";
import type { BuyerSession } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

/** The filtered orders as CSV; with their card keys only when `withKeys` (audited once, export-order-keys.ts). */
async function ordersCsv(req: Request, buyer: BuyerSession, withKeys: boolean): Promise<Response> {
  const q = Object.fromEntries(new URL(req.url).searchParams);
  const filter = BuyerOrderFilterSchema.parse({ ...q, page: 1 });
  const { rows } = await listBuyerOrders({ userId: buyer.userId, filter, all: true });
  const keys = withKeys
    ? await exportOrderKeys({
        userId: buyer.userId,
        orderIds: rows.filter((r) => r.status === "delivered").map((r) => r.id),
        actor: buyerActor(buyer),
      })
    : new Map<number, string[]>();
  return csvResponse(withKeys ? "orders-with-keys.csv" : "orders.csv", [
    ["order_no", "downstream_order_no", "status", "amount", "items", "api_key", "created_at", ...(withKeys ? ["card_keys"] : [])],
    ...rows.map((o) => [
      o.orderNo,
      o.downstreamOrderNo,
      o.status,
      formatAmount(o.amountCents),
      o.items.map((i) => `${pickText(i.title, "en")} (${i.sku.skuCode}) x${i.quantity}`).join("; "),
      o.credential.apiKey,
      formatDateTime(o.createdAt),
      ...(withKeys ? [(keys.get(o.id) ?? []).join("\n")] : []),
    ]),
  ]);
}

/**
 * GET /portal/orders.csv?<the orders page's filters>: the filtered orders,
 * without card keys. A link can make a browser GET this, so `keys=1` here is
 * refused (issue 33.5), not quietly ignored.
 */
export const GET = portalExport(async (req, { buyer }) => {
  if (new URL(req.url).searchParams.has("keys"))
    throw appError("method_not_allowed", "card keys are exported only by the button on the orders page");
  return ordersCsv(req, buyer, false);
});

/** POST /portal/orders.csv?<filters>: the same orders with their card keys, the buyer's own act (portalKeyExport, issue 33.5). */
export const POST = portalKeyExport(async (req, { buyer }) => ordersCsv(req, buyer, true));
