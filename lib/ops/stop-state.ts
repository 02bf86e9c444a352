/**
 * Issue 27.3, decision 0040: whether this server process has begun to stop.
 * Set by the drain (lib/ops/drain.ts) at the first stop signal; read by the
 * readiness check (503 from then on) and by the HTTP server (answers close
 * their connection). On globalThis because Next bundles its own copy of
 * every module the route handlers import: a module variable set by
 * scripts/server.ts would not be the one /api/health/ready reads.
 */
const g = globalThis as unknown as { __cardkeyStoppingSince?: number };

export function markStopping(): void {
  g.__cardkeyStoppingSince ??= Date.now();
}

export function isStopping(): boolean {
  return g.__cardkeyStoppingSince !== undefined;
}
