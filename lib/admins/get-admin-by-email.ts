import { db } from "../db/client";
import { appError } from "../errors";

/** One administrator by e-mail (case-insensitive as stored), or 404. */
export async function getAdminByEmail(email: string): Promise<{ id: number; email: string }> {
  const admin = await db().adminUser.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true } });
  if (!admin) throw appError("not_found", "no such administrator");
  return admin;
}
