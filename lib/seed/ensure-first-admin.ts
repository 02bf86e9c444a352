import crypto from "node:crypto";
import { SYSTEM_ACTOR } from "../audit/actor";
import { env } from "../config/env";
import { db } from "../db/client";
import { createAdmin } from "../admins/create-admin";

export const DEFAULT_ADMIN_EMAIL = "admin@example.com";

export interface FirstAdmin {
  email: string;
  /** Set only when the password was generated here: it must be printed, once. */
  generatedPassword?: string;
}

/**
 * Creates the first administrator when none exists, from ADMIN_EMAIL and
 * ADMIN_PASSWORD, or with a generated password. Returns undefined when an
 * administrator already exists. A transaction-scoped advisory lock makes two
 * servers starting at once create one administrator, not two.
 */
export async function ensureFirstAdmin(): Promise<FirstAdmin | undefined> {
  const email = env().ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL;
  const fromEnv = env().ADMIN_PASSWORD;
  const password = fromEnv || crypto.randomBytes(15).toString("base64url");
  return db().$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('cardkey:first-admin'))`;
      if (await tx.adminUser.count()) return undefined;
      const admin = await createAdmin({ email, password }, { actor: SYSTEM_ACTOR, tx });
      // Issue 22.8: a generated password was printed (terminal, captured logs): it must be replaced at first sign-in.
      if (!fromEnv) await tx.adminUser.update({ where: { id: admin.id }, data: { passwordChangeRequired: true } });
      return { email: admin.email, generatedPassword: fromEnv ? undefined : password };
    },
    { timeout: 30_000 },
  );
}
