// A fulfiller token as the API sees it: found by the SHA-256 of the bearer
// token (only the hash is stored, as buyer sessions and links are), read from
// the database on every request so a revocation stops it at once on every
// instance (no cache to go stale).
import crypto from "node:crypto";
import type { Actor } from "../audit/actor";
import { db } from "../db/client";
import { appError } from "../errors";
import { UNAUTHORIZED_MESSAGE } from "../protocol/errors";

export interface FulfillerToken {
  id: number;
  name: string;
  /** Empty = every manual product. */
  productIds: number[];
}

const PREFIX = "ful_";

export const hashFulfillerToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** A new bearer token: 32 random bytes. */
export const newFulfillerToken = () => PREFIX + crypto.randomBytes(32).toString("base64url");

/** The audit actor of a token's calls: rows read "fulfiller:<name>". */
export const fulfillerActor = (token: FulfillerToken, ip: string | null = null): Actor => ({
  kind: "fulfiller",
  tokenName: token.name,
  ip,
});

/** The live token named by an `Authorization: Bearer …` header, or 401 (every failure looks the same, D7). */
export async function authenticateFulfiller(authorization: string | null): Promise<FulfillerToken> {
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(authorization?.trim() ?? "");
  const row = match
    ? await db().fulfillerToken.findUnique({
        where: { tokenHash: hashFulfillerToken(match[1]) },
        select: { id: true, name: true, productIds: true, revokedAt: true },
      })
    : null;
  if (!row || row.revokedAt) throw appError("unauthorized", UNAUTHORIZED_MESSAGE);
  return { id: row.id, name: row.name, productIds: row.productIds };
}
