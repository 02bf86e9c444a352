import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { issueBuyerLink } from "./issue-buyer-link";
import { mailBuyerLink } from "./mail-buyer-link";

/** A repeat within this long of an unused reset link changes nothing (no new link, no second mail). */
export const RESET_REPEAT_MS = 60_000;

/**
 * Issue 24.1: "forgot my password". For an active buyer with a portal login,
 * a reset link (2 h, one use) is made through issueBuyerLink and e-mailed
 * (issue 25's e-mail channel) without being awaited, so the answer takes as
 * long for a known address as for an unknown one. The caller answers the same
 * for every address (no account enumeration), so the URL never reaches the page.
 * Requests for one buyer take turns (a row lock), and one within a minute of
 * the last unused link does nothing: a double click, a race or a stranger
 * pressing the button again neither mails twice nor voids the link just sent.
 */
export async function requestPasswordReset({ email, ip }: { email: string; ip: string | null }): Promise<{ url: string } | null> {
  const address = email.trim().toLowerCase().slice(0, 254);
  const user = await db().user.findUnique({ where: { email: address }, select: { id: true, status: true, passwordHash: true } });
  if (!user || user.status !== "active" || !user.passwordHash) return null;
  const link = await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${user.id}::uuid FOR UPDATE`;
    const recent = await tx.buyerLink.count({
      where: { userId: user.id, kind: "reset", usedAt: null, createdAt: { gt: new Date(Date.now() - RESET_REPEAT_MS) } },
    });
    if (recent > 0) return null;
    const link = await issueBuyerLink(tx, { userId: user.id, kind: "reset" });
    await writeAuditLog(tx, {
      actor: { kind: "buyer", userId: user.id, ip },
      action: "buyer.password_reset_requested",
      targetType: "user",
      targetId: user.id,
    });
    return { url: link.url };
  });
  if (link) void mailBuyerLink({ to: address, kind: "reset", url: link.url }); // never rejects
  return link;
}
