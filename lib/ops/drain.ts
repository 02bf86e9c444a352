import { disconnectDb } from "../db/client";
import { stopWorkerInServer } from "../worker/run-in-server";
import { log } from "../log";
import { closeRateLimitPool } from "../supplier-api/rate-limit";
import type { RunningHttpServer } from "./http-server";
import { markStopping } from "./stop-state";

/** Issue 10.4: how long in-flight requests may take to finish once a stop begins. */
export const DRAIN_TIMEOUT_MS = 10_000;
/** Running jobs get longer (an upstream call may take its full timeout); past this their locks are released by the next worker start. */
export const WORKER_STOP_TIMEOUT_MS = 25_000;

const sleep = (ms: number) => new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms).unref());

/**
 * Graceful stop of the production server. First it turns not-ready and keeps
 * serving for `notReadyMs` (SHUTDOWN_DELAY_MS): /api/health/ready answers 503
 * and every answer closes its connection, so a load balancer stops sending
 * and keep-alive clients move away before the port closes (issue 27.3,
 * decision 0040). Then it stops accepting, lets in-flight requests finish (at
 * most DRAIN_TIMEOUT_MS, then their sockets are cut), lets the in-server
 * worker finish or give back its jobs (graphile-worker's graceful stop), then
 * closes Next and every pool. An order is either committed before its answer
 * is written or rolled back with the connection: a drain never leaves half an
 * order.
 */
export async function drainAndClose(
  running: RunningHttpServer,
  { notReadyMs, drainMs = DRAIN_TIMEOUT_MS }: { notReadyMs: number; drainMs?: number },
): Promise<void> {
  const { server } = running;
  markStopping();
  if (notReadyMs > 0) {
    log.info({ notReadyMs }, "not ready: serving on until the balancer notices, then draining");
    await sleep(notReadyMs);
  }
  const closed = new Promise<"closed">((r) => server.close(() => r("closed")));
  // Keep-alive sockets between requests would hold close() open: cut each as it falls idle.
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const worker = Promise.race([stopWorkerInServer().then(() => "stopped" as const), sleep(WORKER_STOP_TIMEOUT_MS)]);
  const drained = await Promise.race([closed, sleep(drainMs)]);
  clearInterval(idle);
  if (drained === "timeout") {
    log.warn({ drainMs }, "requests still running after the drain timeout: closing their connections");
    server.closeAllConnections();
  }
  if ((await worker) === "timeout") log.warn("jobs still running: their locks are released when a worker starts again");
  await running.closeApp().catch(() => undefined);
  await closeRateLimitPool();
  await disconnectDb();
  log.info("stopped cleanly");
}
