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
  if (process.env.WORKER_IN_SERVER === "false") {
    log.info({ component: "jobs" }, "WORKER_IN_SERVER=false: no job worker in this server; run `npm run worker`");
    return Promise.resolve(undefined);
  }
  g.__cardkeyWorker ??= startWorker().then(
    (worker) => {
      // Best effort on shutdown: running jobs finish if Next gives them time;
      // if not, the next worker start releases their locks and retries them.
      const stop = () => void worker.stop();
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
      return worker;
    },
    (err) => {
      log.error({ component: "jobs", err: String(err?.message ?? err) }, "job worker failed to start: jobs will not run in this server");
      return undefined;
    },
  );
  return g.__cardkeyWorker;
}
