import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/tx";
import { getSettings } from "../settings/get-settings";
import { issueBuyerLink } from "./issue-buyer-link";
import { mailBuyerLink } from "./mail-buyer-link";

/**
 * Issue 24.1: open sign-up, only while the setting buyer_registration is
 * "approval". The account is made waiting for approval (no keys, no orders
 * until an administrator approves it, approve-registration.ts); the buyer
 * proves the address by the invitation link it is mailed (not awaited, so
 * the answer's timing says nothing about the address). An existing address gets nothing new: the answer is the
 * same either way (no account enumeration).
 */
export async function registerBuyer({ email, ip }: { email: string; ip: string | null }): Promise<{ open: boolean; url?: string }> {
  const { buyerRegistration } = await getSettings();
  if (buyerRegistration !== "approval") return { open: false };
  const address = email.trim().toLowerCase().slice(0, 254);
  try {
    const registered = await db().$transaction(async (tx) => {
      const level = await tx.memberLevel.findFirstOrThrow({ where: { isDefault: true } });
      const user = await tx.user.create({ data: { email: address, memberLevelId: level.id, registrationPending: true } });
      const link = await issueBuyerLink(tx, { userId: user.id, kind: "invite" });
      await writeAuditLog(tx, {
        actor: { kind: "buyer", userId: user.id, ip },
        action: "buyer.register",
        targetType: "user",
        targetId: user.id,
        details: { email: address },
      });
      return { open: true, url: link.url };
    });
    void mailBuyerLink({ to: address, kind: "invite", url: registered.url }); // never rejects
    return registered;
  } catch (err) {
    if (isUniqueViolation(err)) return { open: true };
    throw err;
  }
}
