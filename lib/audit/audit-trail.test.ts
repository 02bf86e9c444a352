import { SYSTEM_ACTOR } from "./actor";
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "../admins/create-admin";
import { createApiKey } from "../credentials/create-api-key";
import { disableApiKey } from "../credentials/disable-api-key";
import { db } from "../db/client";
import { failOrder } from "../fulfillment/fail-order";
import { deliverOrder } from "../fulfillment/deliver-order";
import { createOrder } from "../orders/create-order";
import { adjustPoints } from "../users/adjust-points";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { createUser } from "../users/create-user";

// Issue 22.10: every operator change writes its audit row in its own
// transaction (the row's xmin is the change's), the table is append-only,
// and a money form's one-time token changes money once however often it is
// sent. Actors and tokens are written out literally: the shape is the
// contract (`{kind, id?, ip?}`), not a helper.

let admin: { kind: "admin"; id: number; ip: string };
const token = () => crypto.randomBytes(16).toString("base64url");

/** Whether the audit row `action`/`targetId` was written by the transaction that last wrote `table` row `id`. */
async function sameTransaction(action: string, targetId: string, table: string, where: string) {
  const rows = await db().$queryRawUnsafe<{ same: boolean }[]>(
    `SELECT a.xmin::text = t.xmin::text AS same FROM "AuditLog" a, "${table}" t WHERE a.action = $1 AND a."targetId" = $2 AND ${where}`,
    action,
    targetId,
  );
  return rows.map((r) => r.same);
}

async function auditCount(action: string, targetId: string) {
  return db().auditLog.count({ where: { action, targetId } });
}

async function manualOrder(no: string) {
  const buyer = await makeBuyer({ pointsCents: 10_000n });
  const { sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5, priceCents: 1_000n });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: "P",
    input: { downstreamOrderNo: no, skuId: sku.id, quantity: 1 },
  });
  return { buyer, order };
}

describe("issue 22.10: the audit trail", () => {
  beforeAll(async () => {
    await useTestDatabase();
    const { id } = await createAdmin({ email: "ops-22@example.test", password: "a-test-password-123" }, { actor: SYSTEM_ACTOR });
    admin = { kind: "admin", id, ip: "203.0.113.9" };
  });

  it("issue 22.10: a console change with an admin actor writes its audit row in the change's own transaction; a refused change leaves none", async () => {
    const user = await createUser({ email: "audit-buyer@example.test", initialPointsCents: 1_000n, actor: admin });
    expect(await sameTransaction("user.create", user.id, "User", `t."id" = '${user.id}'`)).toEqual([true]);

    expect(await adjustPoints({ email: user.email, deltaCents: 250n, reason: "admin: goodwill", actor: admin })).toBe(1_250n);
    expect(
      await sameTransaction("points.adjust", user.id, "PointsLedger", `t."userId" = '${user.id}' AND t.reason = 'admin: goodwill'`),
    ).toEqual([true]);
    const row = await db().auditLog.findFirstOrThrow({ where: { action: "points.adjust", targetId: user.id } });
    expect(row).toMatchObject({ actor: "ops-22@example.test", adminUserId: admin.id, ip: "203.0.113.9" });
    expect(row.details).toMatchObject({ amount: "2.50", balance: "12.50" });

    // Refused inside the transaction: neither the change nor its audit row.
    await expect(adjustPoints({ email: user.email, deltaCents: -999_999n, reason: "admin: too much", actor: admin })).rejects.toThrow(
      /below zero/,
    );
    await expect(createUser({ email: user.email, actor: admin })).rejects.toThrow(/already exists/);
    expect(await auditCount("points.adjust", user.id)).toBe(1);
    expect(await db().auditLog.count({ where: { action: "user.create", details: { path: ["email"], equals: user.email } } })).toBe(1);

    const key = await createApiKey({ userId: user.id, name: "shop", actor: admin });
    expect(await sameTransaction("api_key.create", String(key.id), "ApiCredential", `t."id" = ${key.id}`)).toEqual([true]);
    expect(
      JSON.stringify((await db().auditLog.findFirstOrThrow({ where: { action: "api_key.create", targetId: String(key.id) } })).details),
    ).not.toContain(key.apiSecret);
    await disableApiKey({ apiKey: key.apiKey, actor: admin });
    expect(await sameTransaction("api_key.disable", key.apiKey, "ApiCredential", `t."id" = ${key.id}`)).toEqual([true]);

    const { order } = await manualOrder("audit-22-fail");
    await failOrder({ orderNo: order.orderNo, reason: "no stock", actor: admin });
    expect(await sameTransaction("order.fail", order.orderNo, "Order", `t."id" = ${order.id}`)).toEqual([true]);
  });

  it("issue 22.10: UPDATE and DELETE on the audit table are refused", async () => {
    expect(await db().auditLog.count()).toBeGreaterThan(0);
    await expect(db().$executeRaw`UPDATE "AuditLog" SET "actor" = 'someone else'`).rejects.toThrow(/append-only/);
    await expect(db().$executeRaw`DELETE FROM "AuditLog"`).rejects.toThrow(/append-only/);
    await expect(db().auditLog.deleteMany({})).rejects.toThrow(/append-only/);
    expect(await db().auditLog.count({ where: { actor: "someone else" } })).toBe(0);
  });

  it("issue 22.10: the points form sent twice at once with the same token credits once; a refused change leaves its token usable", async () => {
    const buyer = await makeBuyer({ pointsCents: 1_000n });
    const email = buyer.user.email;
    const once = token();
    const both = await Promise.allSettled(
      [1, 2].map(() => adjustPoints({ email, deltaCents: 500n, reason: "admin: refund", actor: admin, onceToken: once })),
    );
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(String((both.find((r) => r.status === "rejected") as PromiseRejectedResult).reason)).toMatch(/already submitted/);
    const ledger = () => db().pointsLedger.count({ where: { userId: buyer.user.id, reason: "admin: refund" } });
    expect(await ledger()).toBe(1);
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(1_500n);
    expect(await auditCount("points.adjust", buyer.user.id)).toBe(1);

    // A new submission (a new token) is a new change.
    await adjustPoints({ email, deltaCents: 500n, reason: "admin: refund", actor: admin, onceToken: token() });
    expect(await ledger()).toBe(2);

    // A refused debit rolls its token back with it: corrected and sent again, it goes through.
    const retry = token();
    await expect(adjustPoints({ email, deltaCents: -999_999n, reason: "admin: fix", actor: admin, onceToken: retry })).rejects.toThrow(
      /below zero/,
    );
    expect(await adjustPoints({ email, deltaCents: -100n, reason: "admin: fix", actor: admin, onceToken: retry })).toBe(1_900n);
  });

  it("issue 22.10: the deliver and fail forms sent twice at once with the same token change the order once and answer already done", async () => {
    for (const verb of ["deliver", "fail"] as const) {
      const { buyer, order } = await manualOrder(`audit-22-twice-${verb}`);
      const once = token();
      const send = () =>
        verb === "deliver"
          ? deliverOrder({ orderNo: order.orderNo, payloadText: "CODE-1", actor: admin, onceToken: once })
          : failOrder({ orderNo: order.orderNo, reason: "no stock", actor: admin, onceToken: once });
      const both = await Promise.allSettled([send(), send()]);
      expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      // "Already done", not the state machine's 409: the second submission is the same one.
      expect(String((both.find((r) => r.status === "rejected") as PromiseRejectedResult).reason)).toMatch(/already submitted/);
      expect(await auditCount(`order.${verb}`, order.orderNo)).toBe(1);
      if (verb === "fail") expect(await db().pointsLedger.count({ where: { userId: buyer.user.id, orderId: order.id } })).toBe(2); // debit + one refund
    }
  });
});
