import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { appError } from "../errors";

/** The user with this e-mail (stored lower-case, see create-user.ts), or `user_not_found`. */
export async function getUserByEmail(email: string, tx: Tx = db()) {
  const user = await tx.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw appError("user_not_found", `no user with email ${email}`);
  return user;
}
