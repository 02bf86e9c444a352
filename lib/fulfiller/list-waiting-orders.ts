import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { DB_NOW, inScope } from "./scoped-order";
import { fulfillerActor, type FulfillerToken } from "./fulfiller-token";

interface Row {
  id: number;
  orderNo: string;
  productId: number;
  skuId: number;
  quantity: number;
  form: unknown;
  createdAt: Date;
  leaseUntil: Date | null;
}

/**
 * Issue 39: the manual orders waiting in a token's scope, oldest first,
 * without those another token holds a live lease on (this token's own
 * leases are listed with their end). Each order's form is given to this
 * caller only, and each order whose form it reads gets an audit row (who,
 * which order, which fields; never the values), in the read's transaction.
 */
export async function listWaitingOrders(input: { token: FulfillerToken; limit: number; ip: string | null }) {
  const { token } = input;
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Row[]>`
      SELECT o."id", o."orderNo", oi."productId", oi."skuId", oi."quantity", o."manualFormData" AS "form", o."createdAt",
             CASE WHEN l."tokenId" = ${token.id} AND l."leaseUntil" > ${DB_NOW} THEN l."leaseUntil" END AS "leaseUntil"
      FROM "Order" o
      JOIN LATERAL (SELECT * FROM "OrderItem" i WHERE i."orderId" = o."id" ORDER BY i."id" LIMIT 1) oi ON true
      JOIN "Product" p ON p."id" = oi."productId"
      LEFT JOIN "FulfillerLease" l ON l."orderId" = o."id"
      WHERE o."status" = 'processing' AND ${inScope(token)}
        AND (l."orderId" IS NULL OR l."tokenId" = ${token.id} OR l."leaseUntil" <= ${DB_NOW})
      ORDER BY o."createdAt", o."id"
      LIMIT ${input.limit}`;
    for (const r of rows) {
      const fields = r.form && typeof r.form === "object" ? Object.keys(r.form) : [];
      if (!fields.length) continue;
      await writeAuditLog(tx, {
        actor: fulfillerActor(token, input.ip),
        action: "order.form_read",
        targetType: "order",
        targetId: r.orderNo,
        details: { orderId: r.id, fields },
      });
    }
    return {
      items: rows.map((r) => ({
        order_no: r.orderNo,
        order_id: r.id,
        product_id: r.productId,
        sku_id: r.skuId,
        quantity: r.quantity,
        form: r.form ?? {},
        created_at: r.createdAt.toISOString(),
        lease_until: r.leaseUntil?.toISOString() ?? null,
      })),
    };
  });
}
