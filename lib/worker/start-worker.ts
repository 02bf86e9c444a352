import pg from "pg";
import { run, type Runner } from "graphile-worker";
import { env } from "../config/env";
import { allowPrivateNetworks } from "../callbacks/callback-config";
import { log } from "../log";
import { installJobSchema } from "../db/install-job-schema";
import { holdLivenessLocks, newWorkerId, recoverStaleLocks } from "../jobs/recover-stale-locks";
import { repairs, taskList } from "./task-list";
import { workerLogger } from "../db/worker-logger";
import { startTelegramPoller } from "../alerts/telegram-poller";

export interface StartWorkerOptions {
  connectionString?: string;
  /** Jobs run at once by this process (WORKER_CONCURRENCY, default 4). */
  concurrency?: number;
  /** Fallback poll for jobs scheduled in the future; new jobs arrive by LISTEN/NOTIFY (WORKER_POLL_INTERVAL_MS, default 1000). */
  pollIntervalMs?: number;
  /** How often dead workers' jobs are looked for (WORKER_SWEEP_INTERVAL_MS, default 15000). */
  sweepIntervalMs?: number;
}

export interface WorkerHandle {
  workerIds: string[];
  stop(): Promise<void>;
}

/**
 * Starts this process's share of the job workers. Any number of processes on
 * any number of machines may run this against one database: graphile-worker
 * hands each job to one worker (SELECT ... FOR UPDATE SKIP LOCKED).
 *
 * One graphile-worker runner per concurrency slot, each with a worker id we
 * choose, so the id's liveness lock (recover-stale-locks.ts) is held before
 * the worker can take its first job.
 */
export async function startWorker(opts: StartWorkerOptions = {}): Promise<WorkerHandle> {
  const config = env();
  const connectionString = opts.connectionString ?? config.DATABASE_URL;
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const concurrency = Math.max(1, opts.concurrency ?? config.WORKER_CONCURRENCY);
  const pollInterval = opts.pollIntervalMs ?? config.WORKER_POLL_INTERVAL_MS;
  const sweepInterval = opts.sweepIntervalMs ?? config.WORKER_SWEEP_INTERVAL_MS;

  await installJobSchema(connectionString);
  // Each runner keeps one connection for LISTEN and uses one per running job.
  const pool = new pg.Pool({ connectionString, max: concurrency * 2 + 2, application_name: "cardkey-worker" });
  pool.on("error", (err) => log.error({ component: "jobs", err: err.message }, "worker pool connection error"));

  const workerIds = Array.from({ length: concurrency }, (_, i) => newWorkerId(i));
  const liveness = new pg.Client({ connectionString, application_name: "cardkey-worker-liveness" });
  liveness.on("error", (err) =>
    // Our locks are gone with the session; other processes may now release our running jobs.
    log.error({ component: "jobs", err: err.message }, "worker liveness connection lost: running jobs may be retried elsewhere"),
  );
  await liveness.connect();
  await holdLivenessLocks(liveness, workerIds);

  await recoverStaleLocks(pool, workerIds);
  const runners: Runner[] = [];
  for (const workerId of workerIds) {
    const options = {
      pgPool: pool,
      concurrency: 1,
      workerId,
      taskList,
      pollInterval,
      noHandleSignals: true,
      logger: workerLogger,
      crontab: "",
    };
    runners.push(await run(options));
  }
  await runRepairs();

  const sweep = setInterval(() => {
    // Nothing here is left rejected: the sweep's failure is logged, and runRepairs logs each repair's.
    void recoverStaleLocks(pool, workerIds)
      .catch((err) => log.warn({ component: "jobs", err: String(err instanceof Error ? err.message : err) }, "stale lock sweep failed"))
      .then(runRepairs);
  }, sweepInterval);
  sweep.unref();
  // Issue 25.4: the held Telegram long poll, one per site (telegram-poller.ts), stopped with the worker.
  const telegram = config.TELEGRAM_POLLING ? startTelegramPoller(connectionString) : null;
  log.info({ component: "jobs", concurrency }, "job worker started");
  allowPrivateNetworks(); // D29: says so loudly at start when the private-network switch is on

  let stopped: Promise<void> | undefined;
  return {
    workerIds,
    stop: () =>
      (stopped ??= (async () => {
        clearInterval(sweep);
        await telegram?.stop();
        // Waits for running jobs to finish (graceful), then releases connections.
        await Promise.allSettled(runners.map((r) => r.stop()));
        await liveness.end().catch(() => {});
        await pool.end().catch(() => {});
      })()),
  };
}

async function runRepairs(): Promise<void> {
  for (const repair of repairs) {
    const count = await repair.run().catch((err) => {
      log.error({ component: "jobs", err: String(err instanceof Error ? err.message : err) }, `repair failed: ${repair.name}`);
      return 0;
    });
    if (count) log.warn({ component: "jobs", count }, `repaired: ${repair.name}`);
  }
}
