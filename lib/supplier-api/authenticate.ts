import crypto from "node:crypto";
import { LRUCache } from "lru-cache";
import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";
import {
  DUJIAO_HEADER_API_KEY,
  DUJIAO_HEADER_SIGNATURE,
  DUJIAO_HEADER_TIMESTAMP,
  DUJIAO_TIMESTAMP_WINDOW_SECONDS,
} from "../protocol/dujiao-next";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP, TIMESTAMP_WINDOW_SECONDS } from "../protocol/headers";
import { UNAUTHORIZED_MESSAGE } from "../protocol/errors";
import { verifySignature } from "../protocol/signing";
import { AppError, appError } from "../errors";
import { countAuthFailure, refuseIfFailingTooOften } from "./auth-failures";
import { after, isPromise, type Maybe } from "../maybe";

export interface AuthenticatedCredential {
  id: number;
  userId: string;
  apiKey: string;
  /** The user's member level (issue 12.4: the prices the key sees). */
  memberLevelId: number;
}

export interface Authentication {
  credential: AuthenticatedCredential;
  timestamp: bigint;
  signature: string;
  /** The raw body, read only once the headers and the key passed. */
  body: Buffer;
}

// D7: every failure is the same 401 with the same message, so a caller
// cannot tell a missing header from an unknown key or a wrong signature.
// Issue 22.2: an unauthenticated client gets its answer and loses its connection.
const unauthorized = () => appError("unauthorized", UNAUTHORIZED_MESSAGE, { headers: { Connection: "close" } });

const KEY_RE = /^[\x21-\x7e]{1,128}$/;
const TIMESTAMP_RE = /^[0-9]{1,12}$/;

type AuthRequest = { method: string; headers: { get(name: string): string | null } };

/** The header names and time window a request is signed with: ours (section 5), or Dujiao-Next's (decision 0090). The rule and the keys are the same. */
export interface AuthScheme {
  apiKey: string;
  timestamp: string;
  signature: string;
  windowSeconds: number;
}
export const SVC_AUTH: AuthScheme = {
  apiKey: HEADER_API_KEY,
  timestamp: HEADER_TIMESTAMP,
  signature: HEADER_SIGNATURE,
  windowSeconds: TIMESTAMP_WINDOW_SECONDS,
};
export const DUJIAO_AUTH: AuthScheme = {
  apiKey: DUJIAO_HEADER_API_KEY,
  timestamp: DUJIAO_HEADER_TIMESTAMP,
  signature: DUJIAO_HEADER_SIGNATURE,
  windowSeconds: DUJIAO_TIMESTAMP_WINDOW_SECONDS,
};

/**
 * Section 5 and D6-D9, in the order of D7, for a client at `address` (issue
 * 22.2): an address past its failed authentications this minute → 429 before
 * anything is looked up; headers present and timestamp an integer within
 * ±60 s → key known and active, its user active → only then the body
 * (`readBody`: an unauthenticated client cannot make us wait for one) → HMAC
 * over the path the client requested, compared in constant time. Each 401
 * counts against the address.
 */
export function authenticate(
  req: AuthRequest,
  path: string,
  readBody: () => Maybe<Buffer>,
  address: string | null,
  scheme: AuthScheme = SVC_AUTH,
): Maybe<Authentication> {
  refuseIfFailingTooOften(address);
  const counted = (err: unknown): never => {
    if (err instanceof AppError && err.code === "unauthorized") countAuthFailure(address);
    throw err;
  };
  try {
    const checked = check(req, path, readBody, scheme);
    return isPromise(checked) ? checked.catch(counted) : checked;
  } catch (err) {
    return counted(err);
  }
}

// Synchronous while the key is cached and the request has no body (issue 40.4: nearly every read).
function check(req: AuthRequest, path: string, readBody: () => Maybe<Buffer>, scheme: AuthScheme): Maybe<Authentication> {
  const apiKey = req.headers.get(scheme.apiKey);
  const ts = req.headers.get(scheme.timestamp);
  const signature = req.headers.get(scheme.signature);
  if (!apiKey || !ts || !signature || !KEY_RE.test(apiKey) || !TIMESTAMP_RE.test(ts)) throw unauthorized();
  if (Math.abs(Number(ts) - Date.now() / 1000) > scheme.windowSeconds) throw unauthorized();

  const startedAt = Date.now();
  const active = (row: CredentialRow | null): row is CredentialRow => row !== null && row.isActive && row.userStatus === "active";
  return after(findCredential(apiKey), (row) => {
    if (!active(row)) throw unauthorized();
    return after(readBody(), (body) => {
      const signed = (r: CredentialRow) =>
        verifySignature({ method: req.method, path, timestamp: ts, body, secret: r.secret, signature }) ||
        // Decision 0039: during a rotation's overlap the previous secret signs too.
        (r.previous !== null &&
          r.previous.until > Date.now() &&
          verifySignature({ method: req.method, path, timestamp: ts, body, secret: r.previous.secret, signature }));
      const authenticated = (r: CredentialRow): Authentication => ({
        credential: { id: r.id, userId: r.userId, apiKey, memberLevelId: r.memberLevelId },
        timestamp: BigInt(ts),
        signature,
        body,
      });
      if (signed(row)) return authenticated(row);
      // A secret rotated within the cache's second: a row cached before this request gets one fresh look-up
      // (bounded per address by the failed-authentication limit, decision 0028), so a new secret works at once.
      if (row.loadedAt >= startedAt) throw unauthorized();
      known.delete(apiKey);
      return after(findCredential(apiKey), (fresh) => {
        if (!active(fresh) || !signed(fresh)) throw unauthorized();
        return authenticated(fresh);
      });
    });
  });
}

interface CredentialRow {
  id: number;
  userId: string;
  isActive: boolean;
  userStatus: string;
  memberLevelId: number;
  /** The API secret's UTF-8 bytes as a KeyObject (signing.ts). */
  secret: crypto.KeyObject;
  /** When this row was read from the database (ms). */
  loadedAt: number;
  /** A rotated key's previous secret and until when (ms) it still signs (decision 0039). */
  previous: { secret: crypto.KeyObject; until: number } | null;
}

// The key lookup is on every request. A key that exists (also a disabled
// one) is reused for up to KNOWN_MS, so disabling a key or its user takes
// effect within a second on every instance; the decrypted secret stays in
// this process's memory, next to the master key it was decrypted with.
// A key with no row is remembered apart, for UNKNOWN_MS (issue 22.2,
// decision 0028): a flood of random keys can only push out other unknown
// keys, never a known one, and a repeated unknown key costs no look-up.
const KNOWN_MS = 1000;
const UNKNOWN_MS = 30_000;
const MAX_CACHED = 10_000;
const known = new LRUCache<string, { at: number; row: CredentialRow }>({ max: MAX_CACHED });
const unknown = new LRUCache<string, true>({ max: MAX_CACHED, ttl: UNKNOWN_MS });
/** One look-up per key at a time; concurrent requests share it. */
const pending = new Map<string, Promise<CredentialRow | null>>();

function findCredential(apiKey: string): Maybe<CredentialRow | null> {
  const hit = known.get(apiKey);
  if (hit && Date.now() - hit.at < KNOWN_MS) return hit.row;
  if (!hit && unknown.has(apiKey)) return null;
  let lookup = pending.get(apiKey);
  if (!lookup) {
    const at = Date.now();
    lookup = loadCredential(apiKey)
      .then((row) => {
        if (row) known.set(apiKey, { at, row });
        else {
          known.delete(apiKey);
          unknown.set(apiKey, true);
        }
        return row;
      })
      .finally(() => pending.delete(apiKey));
    pending.set(apiKey, lookup);
  }
  return lookup;
}

async function loadCredential(apiKey: string): Promise<CredentialRow | null> {
  const r = await db().apiCredential.findUnique({
    where: { apiKey },
    select: {
      id: true,
      userId: true,
      isActive: true,
      secretCiphertext: true,
      previousSecretCiphertext: true,
      previousSecretUntil: true,
      user: { select: { status: true, memberLevelId: true } },
    },
  });
  if (!r) return null;
  const keyOf = (sealed: Uint8Array) => crypto.createSecretKey(Buffer.from(decryptText(sealed), "utf8"));
  const previous =
    r.previousSecretCiphertext && r.previousSecretUntil && r.previousSecretUntil.getTime() > Date.now()
      ? { secret: keyOf(r.previousSecretCiphertext), until: r.previousSecretUntil.getTime() }
      : null;
  return {
    id: r.id,
    userId: r.userId,
    isActive: r.isActive,
    userStatus: r.user.status,
    memberLevelId: r.user.memberLevelId,
    secret: keyOf(r.secretCiphertext),
    previous,
    loadedAt: Date.now(),
  };
}
