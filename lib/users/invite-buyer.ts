import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/tx";
import { appError } from "../errors";
import { issueBuyerLink } from "./issue-buyer-link";
import { mailBuyerLink } from "./mail-buyer-link";

/**
 * Issue 24.1: an administrator (console "Buyers", CLI `user:invite`) invites
 * a buyer to the portal: the buyer is created when missing (default level, no
 * points), and gets a one-time link valid 72 h to set a password. The link is
 * returned once, for the administrator to pass on; it is never audited.
 * Inviting again replaces the earlier link. A disabled buyer is not invited.
 * When an e-mail channel is configured the link is also mailed (`emailed`).
 */
export async function inviteBuyer({ email, actor }: { email: string; actor: Actor }) {
  const address = email.trim().toLowerCase();
  try {
    const invited = await db().$transaction(async (tx) => {
      let user = await tx.user.findUnique({ where: { email: address }, select: { id: true, email: true, status: true } });
      const created = !user;
      if (!user) {
        const level = await tx.memberLevel.findFirstOrThrow({ where: { isDefault: true } });
        user = await tx.user.create({ data: { email: address, memberLevelId: level.id }, select: { id: true, email: true, status: true } });
        await writeAuditLog(tx, {
          actor,
          action: "user.create",
          targetType: "user",
          targetId: user.id,
          details: { email: user.email, points: "0.00" },
        });
      }
      if (user.status !== "active") throw appError("conflict", `buyer ${address} is disabled`);
      const link = await issueBuyerLink(tx, { userId: user.id, kind: "invite" });
      await writeAuditLog(tx, {
        actor,
        action: "user.invite",
        targetType: "user",
        targetId: user.id,
        details: { email: user.email, created, expiresAt: link.expiresAt.toISOString() },
      });
      return { id: user.id, email: user.email, created, inviteUrl: link.url, expiresAt: link.expiresAt };
    });
    return { ...invited, emailed: await mailBuyerLink({ to: invited.email, kind: "invite", url: invited.inviteUrl }) };
  } catch (err) {
    // Two invitations of a new e-mail at once: the second finds the first's buyer on a retry.
    if (isUniqueViolation(err)) return inviteBuyer({ email, actor });
    throw err;
  }
}
