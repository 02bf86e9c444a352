import crypto from "node:crypto";
import { db } from "../db/client";
import { REPLAY_WINDOW_SECONDS } from "../protocol/headers";

let lastSweep = 0;

/**
 * D8 (Profile P): records a processed signed request, identified by
 * (credential, timestamp, signature), in PostgreSQL so the check holds across
 * app instances. Returns false when the same request was seen within the
 * replay window. The primary key makes concurrent copies race safely: exactly
 * one insert wins.
 *
 * The signature does not cover the query string, so `?page=1` and `?page=2`
 * sent in one second share a signature; they are different requests, not a
 * replay. The query therefore joins the identity (as a short digest in the
 * signature column) — see docs/decisions/0010-replay-identity-includes-query.md.
 */
export async function recordSignedRequest(credentialId: number, timestamp: bigint, signature: string, query: string): Promise<boolean> {
  const identity = query ? `${signature}?${crypto.createHash("sha256").update(query).digest("hex").slice(0, 32)}` : signature;
  const expiresAt = new Date(Date.now() + REPLAY_WINDOW_SECONDS * 1000);
  const inserted = await db().$executeRaw`
    INSERT INTO "ReplayRecord" ("credentialId", "timestamp", "signature", "expiresAt")
    VALUES (${credentialId}, ${timestamp}, ${identity}, ${expiresAt})
    ON CONFLICT ("credentialId", "timestamp", "signature") DO UPDATE SET "expiresAt" = EXCLUDED."expiresAt"
      WHERE "ReplayRecord"."expiresAt" < now()`;
  sweepExpired();
  return inserted === 1;
}

/**
 * Expired rows are useless (their timestamp is outside the ±60 s window by
 * then); delete them at most once a minute per process, off the request path.
 */
function sweepExpired() {
  const now = Date.now();
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  db().$executeRaw`DELETE FROM "ReplayRecord" WHERE "expiresAt" < now()`.catch(() => undefined);
}
