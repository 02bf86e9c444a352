import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { db } from "../db/client";
import { authOptions } from "./auth-options";
import { clientIp } from "./client-ip";

export interface AdminSession {
  id: number;
  email: string;
  ip: string | null;
}

/** The signed-in administrator, or null (expired, signed out, disabled since). */
export async function currentAdmin(): Promise<AdminSession | null> {
  const session = (await getServerSession(authOptions)) as { adminId?: number } | null;
  if (!session?.adminId) return null;
  // The JWT alone would outlive a disabled account: check the row every time.
  const admin = await db().adminUser.findUnique({ where: { id: session.adminId }, select: { id: true, email: true, isActive: true } });
  if (!admin?.isActive) return null;
  return { id: admin.id, email: admin.email, ip: clientIp(await headers()) };
}

/**
 * Every admin page (through the console layout) AND every server action calls
 * this first: a request without a valid session is sent to the sign-in page
 * and nothing else runs.
 */
export async function requireAdmin(): Promise<AdminSession> {
  const admin = await currentAdmin();
  if (!admin) redirect("/admin/sign-in");
  return admin;
}
