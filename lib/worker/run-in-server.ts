import { env } from "../config/env";
import { log } from "../log";
import { startWorker, type WorkerHandle } from "./start-worker";

const g = globalThis as unknown as { __cardkeyWorker?: Promise<WorkerHandle | undefined> };

/**
 * Starts the job worker inside the Next server process (called from
 * instrumentation.ts). WORKER_IN_SERVER=false turns it off, for deployments
 * that run `npm run worker` processes instead. Never throws: a server whose
 * worker cannot start still serves, and says so loudly.
 */
export function startWorkerInServer(): Promise<WorkerHandle | undefined> {
  if (!env().WORKER_IN_SERVER) {
    log.info({ component: "jobs" }, "WORKER_IN_SERVER=false: no job worker in this server; run `npm run worker`");
    return Promise.resolve(undefined);
  }
  g.__cardkeyWorker ??= startWorker().then(
    // Stopped by the server's drain (lib/ops/drain.ts, issue 10.4), which owns the signals.
    (worker) => worker,
    (err) => {
      log.error(
        { component: "jobs", err: String(err instanceof Error ? err.message : err) },
        "job worker failed to start: jobs will not run in this server",
      );
      return undefined;
    },
  );
  return g.__cardkeyWorker;
}

/** Graceful stop of this process's worker: running jobs finish, then its connections close. */
export async function stopWorkerInServer(): Promise<void> {
  const worker = await g.__cardkeyWorker;
  await worker?.stop();
}
