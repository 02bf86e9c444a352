import { db } from "../db/client";
import type { JobPayloads } from "../jobs/enqueue-job";
import { alertCallbackGaveUp } from "./order-alerts";
import { recordUpstreamPing } from "./upstream-health";

// Issue 34.1: the alerts raised by a state change in a domain that alerts
// itself imports (callbacks, upstream). That domain enqueues the job in the
// transaction of its change; these handlers, registered in
// lib/worker/task-list.ts, record the alert. Each is idempotent as the queue
// needs: the alert's dedupe key names the change.

/** A callback gave up after its last attempt (lib/callbacks/deliver-callback.ts): once per callback. */
export async function callbackGaveUpJob(job: JobPayloads["alert:callback-gave-up"]): Promise<void> {
  await db().$transaction((tx) => alertCallbackGaveUp(tx, job.callbackId, job.attempts));
}

/**
 * A ping of an upstream connection was recorded (lib/upstream/list-upstream-connections.ts).
 * Its jobs run one at a time per connection, in the order the pings were
 * recorded (their queue), so the count of failures in a row is the pings'.
 */
export async function upstreamPingJob(job: JobPayloads["alert:upstream-ping"]): Promise<void> {
  await db().$transaction(async (tx) => {
    const conn = await tx.upstreamConnection.findUnique({
      where: { id: job.connectionId },
      select: { id: true, name: true, alertBalanceCents: true },
    });
    if (conn) await recordUpstreamPing(tx, conn, { ok: job.ok, balance: job.balance, error: job.error });
  });
}
