// Next runs register() once when a server starts. The job worker (lib/worker)
// starts here rather than in scripts/start.ts so that every running app
// server, whether started by `npm start` or directly with `next start` (as
// the tests and the crash test do), carries a worker by default, and a
// killed server takes its worker with it exactly like production would.
// WORKER_IN_SERVER=false leaves jobs to separate `npm run worker` processes.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Imported here, not at the top: the edge runtime's bundle of this file must not pull in the schema's dependencies.
  const { env } = await import("./lib/config/env");
  if (!env().DATABASE_URL) return;
  // Our HTTP server serves the supplier API with this bundle's router, without Next's (decision 0036).
  const { publishRouter } = await import("./lib/supplier-api/router");
  publishRouter();
  const { startWorkerInServer } = await import("./lib/worker/run-in-server");
  await startWorkerInServer();
  // Issue 25: a stalled job queue is noticed by every server, worker or not.
  const { startQueueWatch } = await import("./lib/alerts/checks/job-queue");
  startQueueWatch(env().ALERT_CHECK_INTERVAL_SECONDS * 1000);
}
