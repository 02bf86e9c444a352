import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { disableApiKey } from "../credentials/disable-api-key";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { startWorker, type WorkerHandle } from "../worker/start-worker";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { runCli } from "../testing/run-cli";
import { buildCatalogEvents } from "./build-catalog-events";
import { hookedBuyer, settleStamps, sleep } from "../testing/catalog-events";
import { deleteCatalogWebhook } from "./delete-catalog-webhook";
import { deliverCatalogEventJob } from "./deliver-catalog-event";
import { listCatalogEvents } from "./list-catalog-events";
import { resendCatalogEvent } from "./resend-catalog-event";
import { setCatalogWebhook } from "./set-catalog-webhook";

// Issue 12.2: catalogue events are delivered like order callbacks (D27-D29):
// retried on the (here shortened) D28 schedule with the same body, failed for
// good then resendable from the console's service, and durable across a
// worker restart (the event and its job are rows in PostgreSQL).

let receiver: CallbackReceiver;
let worker: WorkerHandle | undefined;
let dbUrl: string;
const start = () => startWorker({ connectionString: dbUrl, concurrency: 2, pollIntervalMs: 50 });

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
  process.env.CALLBACK_RETRY_SCHEDULE = "0.1,0.1,0.1"; // 4 attempts in all
  process.env.CATALOG_EVENT_INTERVAL_SECONDS = "1";
  process.env.CALLBACK_TIMEOUT_MS = "2000";
  dbUrl = await useTestDatabase();
  receiver = await startCallbackReceiver();
  worker = await start();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});
beforeEach(() => {
  receiver.respond = () => ({ status: 200 });
});

const changePrice = async (productId: number, cents: bigint) =>
  db().product.update({ where: { id: productId }, data: { priceCents: cents } });

describe("issue 12.2: catalogue event delivery", () => {
  it("D28: a failing receiver is retried on the schedule with the same body, then failed; resend delivers the same body (audited)", async () => {
    const { product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3 });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "failing");
    receiver.respond = (r) => ({ status: r.url.startsWith(hook.path) ? 503 : 200 });
    await changePrice(product.id, 777n);
    const failed = await waitFor(async () => (await hook.rows()).find((e) => e.status === "failed"));
    expect(failed.attemptCount).toBe(4);
    expect(failed.attempts.map((a) => a.httpStatus)).toEqual([503, 503, 503, 503]);
    expect(failed.lastError).toBe("HTTP 503");
    const gaps = failed.attempts.slice(1).map((a, i) => a.createdAt.getTime() - failed.attempts[i].createdAt.getTime());
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(60); // 100 ms ± 20 % jitter, never at once
    const bodies = hook.events().map((e) => JSON.stringify(e));
    expect(bodies).toHaveLength(4);
    expect(new Set(bodies).size).toBe(1);
    // While an event is in retry no new one is built for the key; after it failed for good the next change goes out.
    expect((await hook.rows()).length).toBe(1);

    expect((await listCatalogEvents({ status: "failed" })).find((e) => e.id === failed.id)).toMatchObject({
      apiKey: hook.buyer.apiKey,
      products: 1,
      attempts: 4,
      lastError: "HTTP 503",
    });
    receiver.respond = () => ({ status: 200 });
    expect(await resendCatalogEvent({ eventId: failed.id, actor: SYSTEM_ACTOR })).toEqual({ eventId: failed.id, status: "pending" });
    await waitFor(async () => (await db().catalogEvent.findUniqueOrThrow({ where: { id: failed.id } })).status === "delivered");
    expect(hook.events()).toHaveLength(5);
    expect(JSON.stringify(hook.events()[4])).toBe(bodies[0]);
    expect(await db().auditLog.count({ where: { action: "catalog_event.resend", targetId: String(failed.id) } })).toBe(1);
    // The receiver holds this delivery for a second, so the event is surely still pending when it is resent again.
    receiver.respond = () => ({ status: 200, delayMs: 1000 });
    await resendCatalogEvent({ eventId: failed.id, actor: SYSTEM_ACTOR });
    await expect(resendCatalogEvent({ eventId: failed.id, actor: SYSTEM_ACTOR })).rejects.toMatchObject({
      code: "callback_pending",
      status: 409,
    });
    await waitFor(async () => (await db().catalogEvent.findUniqueOrThrow({ where: { id: failed.id } })).status === "delivered");
    receiver.respond = () => ({ status: 200 });
    await deleteCatalogWebhook({ credentialId: hook.buyer.id, actor: SYSTEM_ACTOR });
  });

  it("a pending event survives a worker restart, even when its job row was lost (requeued at start)", async () => {
    const { product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3 });
    await settleStamps();
    const kept = await hookedBuyer(receiver, "restart-kept");
    const lost = await hookedBuyer(receiver, "restart-lost");
    await worker!.stop();
    worker = undefined;
    await changePrice(product.id, 4242n);
    await settleStamps();
    expect(await buildCatalogEvents()).toBe(2);
    const lostEvent = (await lost.rows())[0];
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ${`catalog-event:${lostEvent.id}`}`;
    await sleep(300);
    expect(kept.events()).toHaveLength(0);
    worker = await start();
    await waitFor(() => kept.events().length === 1 && lost.events().length === 1);
    expect(lost.events()[0].products).toEqual([expect.objectContaining({ id: product.id, price_amount: "42.42" })]);
    // The worker records the delivery after the receiver has answered: wait for the row, not only the request.
    await waitFor(async () => (await lost.rows())[0]?.status === "delivered");
    expect((await lost.rows())[0]).toMatchObject({ status: "delivered", attemptCount: 1 });
    await Promise.all([kept, lost].map((h) => deleteCatalogWebhook({ credentialId: h.buyer.id, actor: SYSTEM_ACTOR })));
  });

  it("replacing the URL re-points pending events; removing the webhook gives them up and stops the events", async () => {
    const { product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3 });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "moved");
    receiver.respond = (r) => ({ status: r.url.startsWith(hook.path) ? 500 : 200 });
    process.env.CALLBACK_RETRY_SCHEDULE = "1,1,1";
    try {
      await changePrice(product.id, 1313n);
      await waitFor(async () => (await hook.rows())[0]?.attemptCount === 1);
      const moved = `${receiver.origin}/catalog/moved-here-${hook.buyer.id}`;
      await setCatalogWebhook({ credentialId: hook.buyer.id, url: moved });
      await waitFor(async () => (await hook.rows())[0]?.status === "delivered");
      expect(receiver.received.filter((r) => r.url === `/catalog/moved-here-${hook.buyer.id}`)).toHaveLength(1);

      receiver.respond = () => ({ status: 500 });
      await changePrice(product.id, 1414n);
      await waitFor(async () => (await hook.rows())[1]?.attemptCount === 1);
      // As the administrator's button on the API keys page does: audited.
      expect(await deleteCatalogWebhook({ credentialId: hook.buyer.id, actor: SYSTEM_ACTOR })).toEqual({ url: null, removed: true });
      expect(await db().auditLog.count({ where: { action: "catalog_webhook.delete", targetId: String(hook.buyer.id) } })).toBe(1);
      expect((await hook.rows())[1]).toMatchObject({ status: "failed", lastError: "webhook removed" });
      const count = receiver.received.length;
      await changePrice(product.id, 1515n);
      await sleep(2500);
      expect(receiver.received.length).toBe(count);
      expect(await hook.rows()).toHaveLength(2);
    } finally {
      process.env.CALLBACK_RETRY_SCHEDULE = "0.1,0.1,0.1";
    }
  });

  it("D29: with private networks not allowed, a loopback webhook is refused at connect time and nothing is sent", async () => {
    const { product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3 });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "private"); // accepted while allowed
    process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "false";
    try {
      await changePrice(product.id, 999n);
      const failed = await waitFor(async () => (await hook.rows()).find((e) => e.status === "failed"));
      expect(hook.events()).toHaveLength(0);
      expect(failed.attempts[0].error).toBe("refused to connect: loopback address");
    } finally {
      process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
      await deleteCatalogWebhook({ credentialId: hook.buyer.id, actor: SYSTEM_ACTOR });
    }
  });

  it("one timer for the whole site: with a second worker (another machine) there is never more than one waiting tick", async () => {
    const second = await start();
    try {
      const waiting = async () =>
        Number(
          (
            await db().$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
          WHERE t.identifier = 'catalog-event:tick' AND j.locked_at IS NULL AND j.attempts < j.max_attempts`
          )[0].n,
        );
      const seen: number[] = [];
      for (let i = 0; i < 30; i++) {
        seen.push(await waiting());
        await sleep(100);
      }
      expect(Math.max(...seen)).toBe(1);
    } finally {
      await second.stop();
    }
  });
});

describe("issue 22.9: disabled keys and buyers stop receiving catalogue events", () => {
  it("issue 22.9: a pending event of a key disabled while it is retried is cancelled, never sent again, and listed as cancelled (service and CLI)", async () => {
    const { product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3 });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "disabled-key");
    receiver.respond = (r) => ({ status: r.url.startsWith(hook.path) ? 503 : 200 });
    // The retry comes 5 s after the first attempt, well after the key is disabled below even on a
    // loaded machine: an attempt already on the wire when the key is disabled cannot be unsent.
    process.env.CALLBACK_RETRY_SCHEDULE = "5,5,5";
    try {
      await changePrice(product.id, 2222n);
      await waitFor(async () => (await hook.rows())[0]?.attemptCount === 1);
      await disableApiKey({ apiKey: hook.buyer.apiKey, actor: SYSTEM_ACTOR }); // the console's and the CLI's service
      receiver.respond = () => ({ status: 200 }); // the receiver would now accept it
      const cancelled = await waitFor(async () => (await hook.rows()).find((e) => e.status === "cancelled"));
      expect(cancelled).toMatchObject({ attemptCount: 1, nextAttemptAt: null, lastError: "API key or buyer disabled", deliveredAt: null });
      await changePrice(product.id, 2323n);
      await sleep(3000); // past the next attempt's time and several ticks
      expect(hook.events()).toHaveLength(1); // the one attempt made before the key was disabled
      expect(await hook.rows()).toEqual([expect.objectContaining({ id: cancelled.id, status: "cancelled", attemptCount: 1 })]);

      expect((await listCatalogEvents({ status: "cancelled" })).find((e) => e.id === cancelled.id)).toMatchObject({
        apiKey: hook.buyer.apiKey,
        status: "cancelled",
      });
      const cli = await runCli<{ events: unknown[] }>(["catalog-event:list", "--status", "cancelled"], { DATABASE_URL: dbUrl });
      expect(cli.code).toBe(0);
      expect(cli.json.events).toContainEqual(
        expect.objectContaining({
          id: cancelled.id,
          api_key: hook.buyer.apiKey,
          status: "cancelled",
          last_error: "API key or buyer disabled",
        }),
      );
    } finally {
      process.env.CALLBACK_RETRY_SCHEDULE = "0.1,0.1,0.1";
    }
  }, 120_000);

  it("issue 22.9: the delivery itself cancels an event whose buyer was disabled after it was built (however that happened), and sends nothing", async () => {
    const { product } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3 });
    await settleStamps();
    const hook = await hookedBuyer(receiver, "disabled-buyer");
    await worker!.stop(); // no tick, no worker: only the delivery job below runs
    worker = undefined;
    try {
      await changePrice(product.id, 3131n);
      await settleStamps();
      expect(await buildCatalogEvents()).toBe(1);
      const [event] = await hook.rows();
      expect(event).toMatchObject({ status: "pending", attemptCount: 0 });
      // Disabled by hand in SQL, not through any service: the delivery still sees it.
      await db().$executeRaw`UPDATE "User" SET "status" = 'disabled' WHERE "id" = ${hook.buyer.user.id}::uuid`;
      await deliverCatalogEventJob({ eventId: event.id, attempt: 0 });
      expect(await hook.rows()).toEqual([expect.objectContaining({ id: event.id, status: "cancelled", attemptCount: 0, attempts: [] })]);
      expect(hook.events()).toHaveLength(0);
      // A resend while the buyer is still disabled is cancelled again at delivery.
      await resendCatalogEvent({ eventId: event.id, actor: SYSTEM_ACTOR });
      await deliverCatalogEventJob({ eventId: event.id, attempt: 0 });
      expect((await hook.rows())[0]).toMatchObject({ status: "cancelled" });
      expect(hook.events()).toHaveLength(0);
    } finally {
      worker = await start();
    }
  });
});
