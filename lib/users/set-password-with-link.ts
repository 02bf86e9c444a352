import { z } from "zod";
import { hashPassword, MIN_PASSWORD_LENGTH } from "../crypto/password";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { endBuyerSessions } from "../portal-auth/buyer-session";
import { hashLinkToken } from "./issue-buyer-link";

export const BuyerPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, "must be at most 1024 characters");

/** A link's token as it appears in the URL: 32 random bytes, base64url. */
export const LinkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "is not a valid link");

/** The link's buyer when the link can still be used (the set-password page shows the form only then). */
export async function findUsableLink(token: string) {
  if (!LinkTokenSchema.safeParse(token).success) return null;
  const link = await db().buyerLink.findUnique({
    where: { tokenHash: hashLinkToken(token) },
    include: { user: { select: { email: true, status: true } } },
  });
  if (!link || link.usedAt || link.expiresAt <= new Date() || link.user.status !== "active") return null;
  return { kind: link.kind, email: link.user.email };
}

/**
 * Issue 24.1: sets a buyer's portal password with a one-time link (an
 * invitation or a reset). The link is used up in the same guarded UPDATE
 * that checks it, so two submissions of one link set a password once; every
 * portal session of the buyer ends (a reset after a suspected break-in).
 */
export async function setPasswordWithLink({ token, password }: { token: string; password: string }) {
  if (!LinkTokenSchema.safeParse(token).success) throw appError("not_found", "this link is not valid or has expired");
  const pw = BuyerPasswordSchema.safeParse(password);
  if (!pw.success) throw appError("bad_request", `password: ${pw.error.issues[0].message}`);
  const passwordHash = await hashPassword(pw.data);
  return db().$transaction(async (tx) => {
    const [link] = await tx.$queryRaw<{ id: number; userId: string; kind: string }[]>`
      UPDATE "BuyerLink" l SET "usedAt" = now()
      FROM "User" u
      WHERE l."tokenHash" = ${hashLinkToken(token)} AND l."usedAt" IS NULL AND l."expiresAt" > now()
        AND u."id" = l."userId" AND u."status" = 'active'
      RETURNING l."id", l."userId"::text AS "userId", l."kind"`;
    if (!link) throw appError("not_found", "this link is not valid or has expired");
    const user = await tx.user.update({ where: { id: link.userId }, data: { passwordHash }, select: { id: true, email: true } });
    await endBuyerSessions(tx, user.id);
    const actor: Actor = { kind: "buyer", userId: user.id };
    await writeAuditLog(tx, {
      actor,
      action: link.kind === "invite" ? "buyer.password_set" : "buyer.password_reset",
      targetType: "user",
      targetId: user.id,
    });
    return { userId: user.id, email: user.email };
  });
}
