import { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation, type Tx } from "../db/tx";
import { appError } from "../errors";
import { hashPassword, MIN_PASSWORD_LENGTH } from "../crypto/password";
import { EmailSchema } from "../users/email";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

export const AdminInputSchema = z.object({
  email: EmailSchema,
  password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024),
});
export type AdminInput = z.input<typeof AdminInputSchema>;

/**
 * Creates an administrator with a scrypt-hashed password (the password itself
 * is never stored or logged) and records who did it in the audit log.
 */
export async function createAdmin(input: AdminInput, { actor, tx }: { actor: Actor; tx?: Tx }) {
  const parsed = AdminInputSchema.safeParse(input);
  if (!parsed.success) {
    throw appError("bad_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  }
  const { email, password } = parsed.data;
  const passwordHash = await hashPassword(password);
  const write = async (t: Tx) => {
    const admin = await t.adminUser.create({ data: { email, passwordHash } });
    await writeAuditLog(t, { actor, action: "admin.create", targetType: "admin_user", targetId: String(admin.id), details: { email } });
    return { id: admin.id, email: admin.email };
  };
  try {
    return tx ? await write(tx) : await db().$transaction(write);
  } catch (err) {
    if (isUniqueViolation(err)) throw appError("conflict", `an administrator with email ${email} already exists`);
    throw err;
  }
}
