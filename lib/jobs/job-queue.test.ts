import { SYSTEM_ACTOR } from "../audit/actor";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { deliverOrder } from "../fulfillment/deliver-order";
import { createOrder } from "../orders/create-order";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { enqueueJob } from "./enqueue-job";
import { listJobs, retryJob } from "./list-jobs";
import { holdLivenessLocks, recoverStaleLocks } from "./recover-stale-locks";
import { startWorker } from "../worker/start-worker";

// Durable jobs on PostgreSQL (graphile-worker): enqueued inside the caller's
// transaction, visible to the administrator, run once across several
// workers, and recovered at once when the worker holding them died.

let url: string;
let receiver: CallbackReceiver;
let pool: pg.Pool;

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
  process.env.CALLBACK_RETRY_SCHEDULE = "0.05,0.05";
  url = await useTestDatabase();
  receiver = await startCallbackReceiver();
  pool = new pg.Pool({ connectionString: url, max: 3 });
});
afterAll(async () => {
  await pool?.end();
  await receiver?.close();
});

let seq = 0;
async function callbackOrders(n: number) {
  const buyer = await makeBuyer({ pointsCents: 1_000_000n });
  const { sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 100n, stockQuantity: null });
  const orders = [];
  for (let i = 0; i < n; i++) {
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: `JQ-${Date.now()}-${++seq}`, skuId: sku.id, quantity: 1, callbackUrl: `${receiver.origin}/jobs/${seq}` },
    });
    orders.push(order);
  }
  return orders;
}
const jobKeysOf = async () => (await listJobs({ limit: 1000 })).map((j) => j.key);

describe("job queue", () => {
  it("a job enqueued in a transaction that rolls back does not exist; a committed one does", async () => {
    await db()
      .$transaction(async (tx) => {
        await enqueueJob(tx, "callback:deliver", { callbackId: 999_001, attempt: 0 }, { jobKey: "test:rolled-back" });
        throw new Error("roll back");
      })
      .catch(() => {});
    await db().$transaction((tx) => enqueueJob(tx, "callback:deliver", { callbackId: 999_002, attempt: 0 }, { jobKey: "test:committed" }));
    const keys = await jobKeysOf();
    expect(keys).not.toContain("test:rolled-back");
    expect(keys).toContain("test:committed");
    // Same key again replaces the waiting job instead of adding a second one.
    await db().$transaction((tx) => enqueueJob(tx, "callback:deliver", { callbackId: 999_002, attempt: 0 }, { jobKey: "test:committed" }));
    expect((await jobKeysOf()).filter((k) => k === "test:committed")).toHaveLength(1);
  });

  it("lists pending and failed jobs for the administrator; a failed job can be retried", async () => {
    const id = await db().$transaction((tx) =>
      enqueueJob(
        tx,
        "callback:deliver",
        { callbackId: 999_003, attempt: 0 },
        { jobKey: "test:to-fail", runAt: new Date(Date.now() + 3600_000) },
      ),
    );
    const pending = await listJobs({ state: "pending", limit: 1000 });
    expect(pending.find((j) => j.id === String(id))).toMatchObject({
      task: "callback:deliver",
      state: "pending",
      attempts: 0,
      payload: { callbackId: 999_003, attempt: 0 },
    });
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET attempts = max_attempts, last_error = 'boom' WHERE id = ${id}`;
    const failed = await listJobs({ state: "failed" });
    expect(failed.find((j) => j.id === String(id))).toMatchObject({ state: "failed", lastError: "boom" });
    expect((await listJobs({ state: "pending", limit: 1000 })).some((j) => j.id === String(id))).toBe(false);
    expect(await retryJob(String(id), { actor: SYSTEM_ACTOR })).toBe(true);
    expect((await listJobs({ state: "pending", limit: 1000 })).find((j) => j.id === String(id))).toMatchObject({
      attempts: 0,
      lastError: null,
    });
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key LIKE 'test:%'`;
  });

  it("two workers (as on two machines) against one database run each job exactly once", async () => {
    const a = await startWorker({ connectionString: url, concurrency: 2, pollIntervalMs: 50 });
    const b = await startWorker({ connectionString: url, concurrency: 2, pollIntervalMs: 50 });
    try {
      receiver.received.length = 0;
      const orders = await callbackOrders(12);
      await Promise.all(orders.map((o) => deliverOrder({ orderNo: o.orderNo, payloadText: `K-${o.id}`, actor: SYSTEM_ACTOR })));
      await waitFor(
        async () => (await db().callback.count({ where: { orderId: { in: orders.map((o) => o.id) }, status: "delivered" } })) === 12,
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received).toHaveLength(12);
      expect(new Set(receiver.received.map((r) => (JSON.parse(r.body) as { order_id: number }).order_id)).size).toBe(12);
      expect(await db().callbackAttempt.count({ where: { callback: { orderId: { in: orders.map((o) => o.id) } } } })).toBe(12);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("a job held by a worker that died is released at the next worker start and runs; a live worker's job is left alone", async () => {
    receiver.received.length = 0;
    const [dead, alive] = await callbackOrders(2);
    await deliverOrder({ orderNo: dead.orderNo, payloadText: "K-dead", actor: SYSTEM_ACTOR });
    await deliverOrder({ orderNo: alive.orderNo, payloadText: "K-alive", actor: SYSTEM_ACTOR });
    const cbDead = await db().callback.findFirstOrThrow({ where: { orderId: dead.id } });
    const cbAlive = await db().callback.findFirstOrThrow({ where: { orderId: alive.id } });
    // As if two workers had taken the jobs: one process was killed (-9), one still runs (holds its liveness lock).
    await db()
      .$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = 'gone-host-1-0-dead', locked_at = now() WHERE key = ${`callback:${cbDead.id}`}`;
    await db()
      .$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = 'other-host-2-0-alive', locked_at = now() WHERE key = ${`callback:${cbAlive.id}`}`;
    const liveClient = new pg.Client({ connectionString: url });
    await liveClient.connect();
    await holdLivenessLocks(liveClient, ["other-host-2-0-alive"]);
    try {
      const worker = await startWorker({ connectionString: url, concurrency: 1, pollIntervalMs: 50 });
      try {
        await waitFor(async () => (await db().callback.findUniqueOrThrow({ where: { id: cbDead.id } })).status === "delivered");
        expect((await db().callback.findUniqueOrThrow({ where: { id: cbAlive.id } })).status).toBe("pending");
        expect(await recoverStaleLocks(pool)).toEqual([]); // the live one stays locked
        // Its process dies now: the next sweep releases it and it runs.
        await liveClient.end();
        expect(await recoverStaleLocks(pool)).toEqual(["other-host-2-0-alive"]);
        await waitFor(async () => (await db().callback.findUniqueOrThrow({ where: { id: cbAlive.id } })).status === "delivered");
        expect(receiver.received.map((r) => (JSON.parse(r.body) as { order_id: number }).order_id).sort()).toEqual(
          [dead.id, alive.id].sort(),
        );
      } finally {
        await worker.stop();
      }
    } finally {
      await liveClient.end().catch(() => {});
    }
  });

  it("a pending callback without a job (written by code that did not enqueue) is requeued by the worker", async () => {
    receiver.received.length = 0;
    const [order] = await callbackOrders(1);
    await db().order.update({ where: { id: order.id }, data: { status: "delivered" } });
    const cb = await db().callback.create({
      data: { orderId: order.id, url: `${receiver.origin}/orphan`, body: '{"orphan":true}', status: "pending" },
    });
    const worker = await startWorker({ connectionString: url, concurrency: 1, pollIntervalMs: 50 });
    try {
      await waitFor(async () => (await db().callback.findUniqueOrThrow({ where: { id: cb.id } })).status === "delivered");
      expect(receiver.received.map((r) => r.body)).toEqual(['{"orphan":true}']);
    } finally {
      await worker.stop();
    }
  });
});
