import { db } from "../db/client";

const INTERVAL_MS = 60_000;
const lastTouched = new Map<number, number>();

/**
 * Keeps ApiCredential.lastUsedAt roughly current without writing the hot row
 * on every request: at most once a minute per key and process, fire-and-forget.
 */
export function touchCredential(credentialId: number): void {
  const now = Date.now();
  if (now - (lastTouched.get(credentialId) ?? 0) < INTERVAL_MS) return;
  lastTouched.set(credentialId, now);
  if (lastTouched.size > 10_000) lastTouched.clear();
  db()
    .apiCredential.update({ where: { id: credentialId }, data: { lastUsedAt: new Date(now) } })
    .catch(() => undefined);
}
