import { db } from "../db/client";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

export type JobState = "pending" | "running" | "failed";

export interface JobRow {
  id: string;
  task: string;
  state: JobState;
  /** Next run (pending), or when it was last due (failed). ISO time. */
  runAt: string;
  attempts: number;
  maxAttempts: number;
  /** The handler's last error message (our handlers never put secrets in one). */
  lastError: string | null;
  key: string | null;
  payload: unknown;
  lockedBy: string | null;
  createdAt: string;
}

/**
 * Jobs for the administrator (admin UI and CLI): what is waiting or running,
 * and what failed for good. graphile-worker deletes a job when it succeeds, so
 * every row here is unfinished work; `failed` ones stay until an
 * administrator retries or removes them. Returns plain JSON-able objects.
 */
export async function listJobs(opts: { state?: JobState; limit?: number } = {}): Promise<JobRow[]> {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 1000);
  const rows = await db().$queryRaw<
    {
      id: bigint;
      task_identifier: string;
      state: JobState;
      run_at: Date;
      attempts: number;
      max_attempts: number;
      last_error: string | null;
      key: string | null;
      payload: unknown;
      locked_by: string | null;
      created_at: Date;
    }[]
  >`
    SELECT * FROM (
      SELECT p.id, t.identifier AS task_identifier, p.run_at, p.attempts, p.max_attempts, p.last_error,
             p.key, p.payload, p.locked_by, p.created_at,
             CASE WHEN p.attempts >= p.max_attempts THEN 'failed'
                  WHEN p.locked_at IS NOT NULL THEN 'running' ELSE 'pending' END AS state
      FROM graphile_worker._private_jobs p JOIN graphile_worker._private_tasks t ON t.id = p.task_id
    ) j
    WHERE (${opts.state ?? null}::text IS NULL OR j.state = ${opts.state ?? null}::text)
      -- The timers of catalogue events (issue 12.2), alert checks (issue 25), the source stock
      -- refresh (issue 26.1), the payment queries (issue 36) and the fulfiller pushes (issue 39) always have a next run:
      -- not work to show unless one failed.
      AND NOT (j.task_identifier IN ('catalog-event:tick', 'alert:tick', 'upstream:stock-refresh', 'payment:tick', 'fulfiller:tick')
        AND j.state <> 'failed')
    ORDER BY j.run_at, j.id
    LIMIT ${limit}`;
  const out: JobRow[] = rows.map((r) => ({
    id: String(r.id),
    task: r.task_identifier,
    state: r.state,
    runAt: r.run_at.toISOString(),
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    lastError: r.last_error,
    key: r.key,
    payload: r.payload,
    lockedBy: r.locked_by,
    createdAt: r.created_at.toISOString(),
  }));
  return out;
}

/** Gives a failed job a fresh set of attempts, due now, audited in the same transaction. Returns whether a job was found. */
export async function retryJob(id: string, { actor }: { actor: Actor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const n = await tx.$executeRaw`
      UPDATE graphile_worker._private_jobs SET attempts = 0, run_at = now(), last_error = NULL
      WHERE id = ${BigInt(id)} AND locked_at IS NULL`;
    if (n === 1) await writeAuditLog(tx, { actor, action: "job.retry", targetType: "job", targetId: id });
    return n === 1;
  });
}
