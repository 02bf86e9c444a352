import { db } from "../../db/client";
import { formatAmount } from "../../protocol/amount";
import { alertThreshold } from "../alert-context";
import { enqueueAlert } from "../enqueue-alert";

/** Issue 25: manual orders still processing after N minutes (default 30); once per order. */
export async function checkManualWait(): Promise<number> {
  const minutes = await alertThreshold("order_manual_wait");
  const rows = await db().$queryRaw<{ id: number; orderNo: string; amountCents: bigint; waited: number }[]>`
    SELECT o."id", o."orderNo", o."amountCents", floor(extract(epoch FROM now() - o."createdAt") / 60)::int AS waited
    FROM "Order" o
    WHERE o."status" = 'processing' AND o."createdAt" < now() - make_interval(mins => ${minutes}::int)
      AND EXISTS (SELECT 1 FROM "OrderItem" oi JOIN "Sku" k ON k."id" = oi."skuId" JOIN "Product" p ON p."id" = k."productId"
                  WHERE oi."orderId" = o."id" AND p."fulfillmentType" = 'manual')
      AND NOT EXISTS (SELECT 1 FROM "AlertEvent" e WHERE e."dedupeKey" = 'order_manual_wait:' || o."id")
    ORDER BY o."createdAt" LIMIT 200`;
  let alerts = 0;
  for (const r of rows) {
    await db().$transaction(async (tx) => {
      const params = { orderNo: r.orderNo, amount: `${formatAmount(r.amountCents)} CNY`, minutes: r.waited };
      if (await enqueueAlert(tx, { kind: "order_manual_wait", dedupeKey: `order_manual_wait:${r.id}`, params })) alerts++;
    });
  }
  return alerts;
}
