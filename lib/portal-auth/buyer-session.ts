import crypto from "node:crypto";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import type { Tx } from "../db/tx";

// Portal sessions (decision 0038): server-side rows, not self-contained
// cookies, so a buyer can see and end each one, and disabling a buyer ends
// every session at once on every instance. The cookie holds 256 random bits;
// the table holds their SHA-256, so a copy of the table opens nothing.

/** The portal's own cookie: the admin console's next-auth cookie never opens /portal, nor this one /admin. */
export const PORTAL_SESSION_COOKIE = "cardkey-portal-session";
/** Absolute lifetime of a portal session; sign in again after it. */
export const PORTAL_SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;
/** lastSeenAt is written at most this often per session (not on every page). */
const TOUCH_MS = 60_000;

export interface LiveBuyer {
  sessionId: string;
  userId: string;
  email: string;
  registrationPending: boolean;
}

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** A new session for `userId`; the token is for the cookie and is not kept anywhere else. */
export async function createBuyerSession({
  userId,
  ip,
  userAgent,
}: {
  userId: string;
  ip: string | null;
  userAgent: string | null;
}): Promise<{ token: string; expiresAt: Date }> {
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + PORTAL_SESSION_MAX_AGE_SECONDS * 1000);
  await db().buyerSession.create({
    data: { userId, tokenHash: hashToken(token), ip, userAgent: userAgent?.slice(0, 300) ?? null, expiresAt },
  });
  return { token, expiresAt };
}

/** The buyer a cookie names while its session is live: not revoked, not expired, the buyer active. */
export async function findLiveBuyer(token: string | undefined): Promise<LiveBuyer | null> {
  if (!token || token.length > 100) return null;
  const row = await db().buyerSession.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      revokedAt: true,
      expiresAt: true,
      lastSeenAt: true,
      user: { select: { id: true, email: true, status: true, registrationPending: true } },
    },
  });
  if (!row || row.revokedAt || row.expiresAt <= new Date() || row.user.status !== "active") return null;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_MS) {
    await db()
      .buyerSession.update({ where: { id: row.id }, data: { lastSeenAt: new Date() } })
      .catch(() => undefined);
  }
  return { sessionId: row.id, userId: row.user.id, email: row.user.email, registrationPending: row.user.registrationPending };
}

/**
 * Ends one session of this buyer (sign-out, or "end" in the session list),
 * with its audit row in the same transaction; false (and no row) when it is
 * not theirs or already ended.
 */
export async function revokeBuyerSession({
  userId,
  sessionId,
  actor,
  why,
}: {
  userId: string;
  sessionId: string;
  actor: Actor;
  why: "sign_out" | "session_end";
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.buyerSession.updateMany({
      where: { id: sessionId, userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count !== 1) return false;
    await writeAuditLog(
      tx,
      why === "sign_out"
        ? { actor, action: "buyer.sign_out", targetType: "user", targetId: userId }
        : { actor, action: "buyer.session_end", targetType: "buyer_session", targetId: sessionId },
    );
    return true;
  });
}

/** Ends every session of a buyer (disabled, password set or reset), in the caller's transaction. */
export async function endBuyerSessions(tx: Tx, userId: string): Promise<number> {
  const { count } = await tx.buyerSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}

/** This buyer's live sessions, newest first (the portal's "Sessions" list). */
export async function listBuyerSessions(userId: string) {
  return db().buyerSession.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, ip: true, userAgent: true, createdAt: true, lastSeenAt: true },
    orderBy: { createdAt: "desc" },
    take: 50,
  });
}
