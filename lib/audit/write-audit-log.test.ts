import { SYSTEM_ACTOR } from "./actor";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/test-database";
import { makeBuyer, makeProduct } from "../testing/factories";
import { createAdmin } from "../admins/create-admin";
import { createOrder } from "../orders/create-order";
import { deliverOrder } from "../fulfillment/deliver-order";
import { failOrder } from "../fulfillment/fail-order";
import { db } from "../db/client";
import { adminActor } from "./actor";

// Issue 5: the audit log records who, what, when and from which IP — also for
// actions whose audit row is written by a service (manual deliver/fail).

describe("audit rows of manual fulfillment", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("carry the admin's IP and never the payload", async () => {
    const buyer = await makeBuyer();
    const { sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5 });
    const { id } = await createAdmin({ email: "ops@example.com", password: "a-test-password-123" }, { actor: SYSTEM_ACTOR });
    const place = (no: string) =>
      createOrder({
        credential: { id: buyer.id, userId: buyer.user.id },
        profile: "P",
        input: { downstreamOrderNo: no, skuId: sku.id, quantity: 1 },
      });
    const a = (await place("audit-1")).order;
    const b = (await place("audit-2")).order;

    await deliverOrder({ orderNo: a.orderNo, payloadText: "SECRET-CODE-1", actor: adminActor({ id, ip: "203.0.113.9" }) });
    await failOrder({ orderNo: b.orderNo, reason: "no stock", actor: adminActor({ id, ip: "203.0.113.10" }) });

    const rows = await db().auditLog.findMany({ where: { targetId: { in: [a.orderNo, b.orderNo] } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.action, r.actor, r.ip])).toEqual([
      ["order.deliver", "ops@example.com", "203.0.113.9"],
      ["order.fail", "ops@example.com", "203.0.113.10"],
    ]);
    expect(JSON.stringify(rows.map((r) => r.details))).not.toContain("SECRET-CODE-1");
  });
});
