import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { issueBuyerLink } from "./issue-buyer-link";
import { mailBuyerLink } from "./mail-buyer-link";

/**
 * Issue 24.1: "forgot my password". For an active buyer with a portal login,
 * a reset link (2 h, one use) is made through issueBuyerLink and e-mailed
 * (issue 25's e-mail channel) without being awaited, so the answer takes as
 * long for a known address as for an unknown one. The caller answers the same
 * for every address (no account enumeration), so the URL never reaches the page.
 */
export async function requestPasswordReset({ email, ip }: { email: string; ip: string | null }): Promise<{ url: string } | null> {
  const address = email.trim().toLowerCase().slice(0, 254);
  const user = await db().user.findUnique({ where: { email: address }, select: { id: true, status: true, passwordHash: true } });
  if (!user || user.status !== "active" || !user.passwordHash) return null;
  const link = await db().$transaction(async (tx) => {
    const link = await issueBuyerLink(tx, { userId: user.id, kind: "reset" });
    await writeAuditLog(tx, {
      actor: { kind: "buyer", userId: user.id, ip },
      action: "buyer.password_reset_requested",
      targetType: "user",
      targetId: user.id,
    });
    return { url: link.url };
  });
  void mailBuyerLink({ to: address, kind: "reset", url: link.url }); // never rejects
  return link;
}
