import { z } from "zod";
import { confirmOwnPassword, CurrentPasswordSchema } from "../admin-auth/confirm-own-password";
import { endOtherSessions, type TotpOwner } from "../admin-auth/totp-account";
import { writeAuditLog } from "../audit/write-audit-log";
import { hashPassword } from "../crypto/password";
import { db } from "../db/client";
import { BuyerPasswordSchema } from "./set-password-with-link";

/** The portal's password form: the current password, the new one twice. */
export const ChangeBuyerPasswordSchema = z
  .object({ password: CurrentPasswordSchema, newPassword: BuyerPasswordSchema, confirm: z.string().max(1024) })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: "the two new passwords differ" });

/**
 * Issue 35.4: a signed-in buyer changes the portal password. The current
 * password is asked again on the sign-in throttle's counters (a stolen
 * session is not the password, issue 33.6: confirmOwnPassword); the new hash,
 * the end of every other portal session of the buyer and the audit row are
 * one transaction. This session stays signed in.
 */
export async function changeBuyerPassword(owner: TotpOwner, input: z.infer<typeof ChangeBuyerPasswordSchema>): Promise<void> {
  if (owner.account.kind !== "buyer") throw new Error("changeBuyerPassword: not a buyer"); // the console has its own (lib/admins)
  const userId = owner.account.id;
  await confirmOwnPassword(owner, input.password);
  const passwordHash = await hashPassword(input.newPassword);
  await db().$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    await endOtherSessions(tx, owner);
    await writeAuditLog(tx, { actor: owner.actor, action: "buyer.password_change", targetType: "user", targetId: userId });
  });
}
