import crypto from "node:crypto";
import { deriveKey } from "./derive-key";

// A small claim the server hands a browser and reads back unchanged: JSON,
// base64url, an expiry, and an HMAC under a key derived for one purpose
// (`info`), so a claim made for one job is never accepted by another. Used
// for the device cookies (lib/admin-auth/device-cookie.ts) and the portal's
// sign-in code step (lib/portal-auth/code-step-ticket.ts).

type Claim = Record<string, string | number>;

function mac(info: string, payload: string): string {
  return crypto.createHmac("sha256", deriveKey(info)).update(payload).digest("base64url");
}

/** A signed value carrying `claim` until now + ttlSeconds. */
export function signClaim(info: string, claim: Claim, ttlSeconds: number, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ ...claim, x: Math.floor(now / 1000) + ttlSeconds })).toString("base64url");
  return `${payload}.${mac(info, payload)}`;
}

/** The claim of a value this server signed for `info` and that has not expired; otherwise null. */
export function readClaim(info: string, value: string | undefined, now = Date.now()): Claim | null {
  if (!value || value.length > 1000) return null;
  const [payload, sig, extra] = value.split(".");
  if (!payload || !sig || extra !== undefined) return null;
  const expected = Buffer.from(mac(info, payload));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  try {
    const body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claim;
    return typeof body.x === "number" && body.x * 1000 > now ? body : null;
  } catch {
    return null;
  }
}
