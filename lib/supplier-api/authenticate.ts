import crypto from "node:crypto";
import { db } from "../db/client";
import { decryptText } from "../crypto/secret-box";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP, TIMESTAMP_WINDOW_SECONDS } from "../protocol/headers";
import { UNAUTHORIZED_MESSAGE } from "../protocol/errors";
import { verifySignature } from "../protocol/signing";
import { appError } from "../errors";

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
}

// D7: every failure is the same 401 with the same message, so a caller
// cannot tell a missing header from an unknown key or a wrong signature.
const unauthorized = () => appError("unauthorized", UNAUTHORIZED_MESSAGE);

const KEY_RE = /^[\x21-\x7e]{1,128}$/;
const TIMESTAMP_RE = /^[0-9]{1,12}$/;

/**
 * Section 5 and D6-D9, in the order of D7: headers present and timestamp an
 * integer within ±60 s → key known and active, its user active → HMAC over
 * the path the client requested, compared in constant time.
 */
export async function authenticate(req: { method: string; headers: { get(name: string): string | null } }, path: string, body: Buffer): Promise<Authentication> {
  const apiKey = req.headers.get(HEADER_API_KEY);
  const ts = req.headers.get(HEADER_TIMESTAMP);
  const signature = req.headers.get(HEADER_SIGNATURE);
  if (!apiKey || !ts || !signature || !KEY_RE.test(apiKey) || !TIMESTAMP_RE.test(ts)) throw unauthorized();
  if (Math.abs(Number(ts) - Date.now() / 1000) > TIMESTAMP_WINDOW_SECONDS) throw unauthorized();

  const row = await findCredential(apiKey);
  if (!row || !row.isActive || row.userStatus !== "active") throw unauthorized();

  const secret = row.secret;
  if (!verifySignature({ method: req.method, path, timestamp: ts, body, secret, signature })) throw unauthorized();
  return { credential: { id: row.id, userId: row.userId, apiKey, memberLevelId: row.memberLevelId }, timestamp: BigInt(ts), signature };
}

interface CredentialRow {
  id: number;
  userId: string;
  isActive: boolean;
  userStatus: string;
  memberLevelId: number;
  /** The API secret's UTF-8 bytes as a KeyObject (signing.ts). */
  secret: crypto.KeyObject;
}

// The key lookup is on every request; a result (also "no such key") is
// reused for up to CACHE_MS, so disabling a key or its user takes effect
// within a second on every instance. The decrypted secret stays in this
// process's memory, next to the master key it was decrypted with.
const CACHE_MS = 1000;
const MAX_CACHED = 10_000;
const cache = new Map<string, { at: number; row: Promise<CredentialRow | null> }>();

function findCredential(apiKey: string): Promise<CredentialRow | null> {
  const now = Date.now();
  const hit = cache.get(apiKey);
  if (hit && now - hit.at < CACHE_MS) return hit.row;
  if (cache.size >= MAX_CACHED) cache.clear();
  const row = db()
    .apiCredential.findUnique({
      where: { apiKey },
      select: { id: true, userId: true, isActive: true, secretCiphertext: true, user: { select: { status: true, memberLevelId: true } } },
    })
    .then((r) =>
      r ? { id: r.id, userId: r.userId, isActive: r.isActive, userStatus: r.user.status, memberLevelId: r.user.memberLevelId, secret: crypto.createSecretKey(Buffer.from(decryptText(r.secretCiphertext), "utf8")) } : null,
    );
  cache.set(apiKey, { at: now, row });
  row.catch(() => cache.delete(apiKey));
  return row;
}
