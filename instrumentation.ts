// Next runs register() once when a server starts. The job worker (lib/jobs)
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
  // The supplier API skips Next's router (lib/ops/direct-dispatch.ts, decision 0023).
  const { registerDirectRoutes } = await import("./lib/ops/direct-dispatch");
  registerDirectRoutes({
    products: await import("./app/api/v1/[profile]/products/route"),
    "products/[id]": await import("./app/api/v1/[profile]/products/[id]/route"),
    categories: await import("./app/api/v1/[profile]/categories/route"),
    orders: await import("./app/api/v1/[profile]/orders/route"),
    "orders/[id]": await import("./app/api/v1/[profile]/orders/[id]/route"),
    "orders/[id]/cancel": await import("./app/api/v1/[profile]/orders/[id]/cancel/route"),
    "orders/[id]/after-sales": await import("./app/api/v1/[profile]/orders/[id]/after-sales/route"),
    ping: await import("./app/api/v1/[profile]/ping/route"),
    statement: await import("./app/api/v1/[profile]/statement/route"),
  });
  const { startWorkerInServer } = await import("./lib/jobs/run-in-server");
  await startWorkerInServer();
}
