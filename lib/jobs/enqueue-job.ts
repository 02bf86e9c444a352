import type { Tx } from "../db/tx";

/**
 * Every job the worker knows, with its payload. Add a line here and a handler
 * in lib/worker/task-list.ts for a new kind of job. Payloads carry ids only, never
 * secrets, card keys or form values: graphile-worker stores them in plain JSON.
 */
export interface JobPayloads {
  /** Deliver one Profile U callback (D26-D28); `attempt` = attempts made before this one. */
  "callback:deliver": { callbackId: number; attempt: number };
  /** One step (create or poll) of buying an `upstream` order from its supplier (lib/upstream/run-purchase.ts); `recheck`: one administrator-requested check of an order in review. */
  "upstream:purchase": { purchaseId: number; recheck?: boolean };
  /** Deliver one catalogue event (issue 12.2, lib/catalog-events); `attempt` = attempts made before this one. */
  "catalog-event:deliver": { eventId: number; attempt: number };
  /** Build the due catalogue events, then schedule the next run (lib/catalog-events/catalog-event-tick.ts). */
  "catalog-event:tick": Record<string, never>;
  /** Issue 25: turn one alert event into a delivery per channel that wants it (lib/alerts/dispatch-alert.ts). */
  "alert:dispatch": { eventId: string };
  /** Issue 25: send a channel's pending alerts of one kind as one message, at most one a minute (lib/alerts/send-alerts.ts). */
  "alert:send": { channelId: number; kind: string };
  /** Issue 25: the periodic alert checks, then schedule the next run (lib/alerts/alert-check-tick.ts). */
  "alert:tick": Record<string, never>;
  /** Issue 26.1: refresh the sources' last known stock from their upstreams, then schedule the next run (lib/upstream/source-stock-tick.ts). */
  "upstream:stock-refresh": Record<string, never>;
  /** Issue 36: ask the gateways about open payments, expire the overdue, then schedule the next run (lib/payments/payment-tick.ts). */
  "payment:tick": Record<string, never>;
  /** One step (open or poll) of our after-sales claim at the upstream a line was bought from (lib/after-sales/claim-upstream.ts). */
  "after-sales:upstream": { claimId: number; run?: number };
  /** Issue 39: push one order.waiting event to a fulfiller token's webhook (lib/fulfiller/deliver-fulfiller-event.ts). */
  "fulfiller-event:deliver": { eventId: number; attempt: number };
  /** Issue 39: store the events of manual orders that started waiting, then schedule the next run (lib/fulfiller/queue-waiting-events.ts). */
  "fulfiller:tick": Record<string, never>;
  // Issue 34.1: side effects another domain subscribes to, enqueued in the transaction of the state change (CODE_STYLE.md).
  /** A callback gave up after its last attempt: alert it once (lib/alerts/subscribed-alerts.ts). */
  "alert:callback-gave-up": { callbackId: number; attempts: number };
  /** A ping of an upstream connection was recorded: count it towards upstream_down / balance alerts (lib/alerts/subscribed-alerts.ts). Its outcome, not an id: our own error text and a balance, never a secret, and not kept anywhere else. */
  "alert:upstream-ping": { connectionId: number; ok: boolean; balance: string | null; error: string | null };
  /** Issue 38: a buyer's credit use crossed 80 % of its line (queued by the User row's trigger): alert once per crossing (lib/alerts/credit-alerts.ts). */
  "alert:credit-use": { userId: string };
  /** The upstream told us (order.updated) that an order we bought changed: read our open claims there now (lib/after-sales/queue-upstream-claim.ts). */
  "after-sales:order-changed": { orderId: number };
}
export type JobName = keyof JobPayloads;

export interface EnqueueOptions {
  /** Run no earlier than this (retries, scheduled polls). */
  runAt?: Date;
  /**
   * De-duplicates: a second enqueue with the same key replaces a job that has
   * not started yet (graphile-worker's "replace" mode) instead of adding one.
   */
  jobKey?: string;
  /** With jobKey: "preserve_run_at" keeps a waiting job's run time (a later enqueue does not postpone it). */
  jobKeyMode?: "replace" | "preserve_run_at";
  /** Attempts graphile-worker makes when the handler throws (its own back-off: exp(n) seconds). */
  maxAttempts?: number;
  /** Jobs of one queue run one at a time, in order. */
  queueName?: string;
}

/**
 * Adds a job inside the caller's transaction, through graphile-worker's own
 * SQL function, so the job commits or rolls back together with the state
 * change that caused it: no job without its change, no change without its
 * job, whatever moment a process dies. Workers are woken by the NOTIFY that
 * add_job sends, which PostgreSQL delivers at commit.
 */
export async function enqueueJob<N extends JobName>(tx: Tx, name: N, payload: JobPayloads[N], opts: EnqueueOptions = {}): Promise<bigint> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT (graphile_worker.add_job(
      identifier => ${name}::text,
      payload => ${JSON.stringify(payload)}::json,
      queue_name => ${opts.queueName ?? null}::text,
      run_at => ${opts.runAt ?? null}::timestamptz,
      max_attempts => ${opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::int,
      job_key => ${opts.jobKey ?? null}::text,
      job_key_mode => ${opts.jobKeyMode ?? "replace"}::text
    )).id AS id`;
  return rows[0].id;
}

/** graphile-worker's default is 25 (days of retries); our handlers are idempotent but 10 is plenty. */
export const DEFAULT_MAX_ATTEMPTS = 10;
