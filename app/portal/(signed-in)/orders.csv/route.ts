import { formatDateTime, pickText } from "@/lib/i18n/format";
import { BuyerOrderFilterSchema, listBuyerOrders } from "@/lib/portal/buyer-orders";
import { exportOrderKeys } from "@/lib/portal/export-order-keys";
import { csvResponse, portalExport } from "@/lib/portal-auth/portal-route";
import { buyerActor } from "@/lib/audit/actor";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

/**
 * GET /portal/orders.csv?<the orders page's filters>[&keys=1]: the filtered
 * orders. Card keys only with keys=1, an explicit choice, audited once
 * (export-order-keys.ts).
 */
export const GET = portalExport(async (req, { buyer }) => {
  const q = Object.fromEntries(new URL(req.url).searchParams);
  const filter = BuyerOrderFilterSchema.parse({ ...q, page: 1 });
  const { rows } = await listBuyerOrders({ userId: buyer.userId, filter, all: true });
  const withKeys = q.keys === "1";
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
});
