import { writeAuditLog } from "../audit/write-audit-log";
import { appError } from "../errors";
import { DB_NOW, onWaitingOrder, type OrderCall } from "./scoped-order";
import { fulfillerActor } from "./fulfiller-token";

/**
 * Issue 39: a lease on a waiting manual order for `leaseSeconds`. One
 * statement takes it when it is free, expired or already this token's
 * (claiming again extends it), so two workers never both hold it; another
 * token's live lease is 409 order_leased.
 */
export async function claimOrder(input: OrderCall & { leaseSeconds: number; ip: string | null }) {
  return onWaitingOrder(input, async (tx, order) => {
    const [lease] = await tx.$queryRaw<{ leaseUntil: Date }[]>`
      INSERT INTO "FulfillerLease" ("orderId", "tokenId", "leaseUntil")
      VALUES (${order.id}, ${input.token.id}, ${DB_NOW} + make_interval(secs => ${input.leaseSeconds}))
      ON CONFLICT ("orderId") DO UPDATE SET "tokenId" = EXCLUDED."tokenId", "leaseUntil" = EXCLUDED."leaseUntil"
      WHERE "FulfillerLease"."tokenId" = EXCLUDED."tokenId" OR "FulfillerLease"."leaseUntil" <= ${DB_NOW}
      RETURNING "leaseUntil"`;
    if (!lease) throw appError("order_leased", `order ${order.orderNo} is leased by another token`);
    await writeAuditLog(tx, {
      actor: fulfillerActor(input.token, input.ip),
      action: "order.claim",
      targetType: "order",
      targetId: order.orderNo,
      details: { orderId: order.id, leaseSeconds: input.leaseSeconds },
    });
    return { order_no: order.orderNo, lease_until: lease.leaseUntil.toISOString() };
  });
}
