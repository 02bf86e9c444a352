import { beforeAll, describe, expect, it } from "vitest";
import { buyerActor, SYSTEM_ACTOR } from "../audit/actor";
import { createApiKey } from "../credentials/create-api-key";
import { db } from "../db/client";
import { listStatement } from "../points/list-statement";
import { listBuyerKeys } from "../portal/buyer-keys";
import { BuyerOrderFilterSchema, getBuyerOrder, listBuyerOrders } from "../portal/buyer-orders";
import { exportOrderKeys } from "../portal/export-order-keys";
import { getPriceList } from "../portal/price-list";
import { revealOrderKeys } from "../portal/reveal-order-keys";
import { updateSettings } from "../settings/update-settings";
import { useTestDatabase } from "../testing/test-database";
import { listTopUps } from "../top-ups/list-top-ups";
import { requestTopUp } from "../top-ups/request-top-up";
import { approveRegistration } from "../users/approve-registration";
import { registerBuyer } from "../users/register-buyer";
import { anyArray } from "@/lib/testing/matchers";

// Issue 33.3: an account waiting for approval is refused by each buyer
// service itself (not only by the portal's pages and guard), against real
// PostgreSQL, and a refusal writes nothing: no top-up row, no alert, no job,
// no audit row.

let seq = 0;
beforeAll(async () => {
  await useTestDatabase();
  await updateSettings({ buyer_registration: "approval" }, { actor: SYSTEM_ACTOR });
});

async function pendingBuyer() {
  const email = `pending-${Date.now()}-${++seq}@example.test`;
  await registerBuyer({ email, ip: "203.0.113.7" });
  const user = await db().user.findUniqueOrThrow({ where: { email } });
  expect(user.registrationPending).toBe(true);
  return { user, actor: buyerActor({ userId: user.id, ip: "203.0.113.7" }) };
}

const alertJobs = async () =>
  Number(
    (
      await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'alert:dispatch'`
    )[0].n,
  );
const written = async (userId: string) => ({
  topUps: await db().topUpRequest.count({ where: { userId } }),
  keys: await db().apiCredential.count({ where: { userId } }),
  alerts: await db().alertEvent.count(),
  alertJobs: await alertJobs(),
  audit: await db().auditLog.count(),
});

describe("issue 33.3: an account waiting for approval", () => {
  it("issue 33.3: pending account refused by each service (prices, top-up create and list, keys, orders, reveal, exports, statement), nothing written", async () => {
    const { user, actor } = await pendingBuyer();
    const userId = user.id;
    const before = await written(userId);
    const calls: [string, () => Promise<unknown>][] = [
      ["price list", () => getPriceList({ userId })],
      ["top-up request", () => requestTopUp({ userId, input: { amount: "1000000.00", transferReference: "BANK-1" }, actor })],
      ["top-up list", () => listTopUps({ userId })],
      ["key create", () => createApiKey({ userId, name: "shop", actor })],
      ["key list", () => listBuyerKeys({ userId })],
      ["orders", () => listBuyerOrders({ userId, filter: BuyerOrderFilterSchema.parse({}), all: true })],
      ["order", () => getBuyerOrder({ userId, orderNo: "ORD-NONE" })],
      ["reveal", () => revealOrderKeys({ userId, orderNo: "ORD-NONE", actor })],
      ["orders export with keys", () => exportOrderKeys({ userId, orderIds: [], actor })],
      ["statement", () => listStatement({ userId, page: 1, pageSize: 10 })],
    ];
    for (const [name, call] of calls) await expect(call(), name).rejects.toMatchObject({ code: "account_pending", status: 403 });
    expect(await written(userId)).toEqual(before);

    // Approved, the same services answer (the rule is the approval, not the account).
    await approveRegistration({ userId, actor: { kind: "cli" } });
    await expect(getPriceList({ userId })).resolves.toMatchObject({ rows: anyArray() });
    await requestTopUp({ userId, input: { amount: "10.00", transferReference: "BANK-2" }, actor });
    expect(await db().topUpRequest.count({ where: { userId } })).toBe(1);
    expect(await alertJobs()).toBe(before.alertJobs + 1);
  });
});
