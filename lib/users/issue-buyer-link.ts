import crypto from "node:crypto";
import type { Tx } from "../db/tx";
import { getSettings } from "../settings/get-settings";

// Issue 24.1: the one-time links of the portal (an invitation, a password
// reset). THE one place a link is made: every caller gets the URL from here,
// and mail-buyer-link.ts mails it after the transaction commits.
// Only the token's SHA-256 is stored; the URL exists in this answer only.

export type BuyerLinkKind = "invite" | "reset";

/** How long a link works: 72 h for an invitation (issue 24.1), 2 h for a password reset. */
export const LINK_VALIDITY_MS: Record<BuyerLinkKind, number> = { invite: 72 * 3600_000, reset: 2 * 3600_000 };

export const hashLinkToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** A fresh link for `userId`; earlier unused links of the same kind stop working (only the newest is valid). */
export async function issueBuyerLink(
  tx: Tx,
  { userId, kind }: { userId: string; kind: BuyerLinkKind },
): Promise<{ url: string; expiresAt: Date }> {
  const now = new Date();
  await tx.buyerLink.updateMany({ where: { userId, kind, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + LINK_VALIDITY_MS[kind]);
  await tx.buyerLink.create({ data: { userId, kind, tokenHash: hashLinkToken(token), expiresAt } });
  const { publicBaseUrl } = await getSettings(tx);
  return { url: `${publicBaseUrl}/portal/link/${token}`, expiresAt };
}
