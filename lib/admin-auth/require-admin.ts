import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { authOptions } from "./auth-options";
import { clientIp } from "./client-ip";
import { findLiveAdmin } from "./live-admin";

export interface AdminSession {
  id: number;
  email: string;
  ip: string | null;
}

/** The signed-in administrator, or null (expired, signed out, password changed, disabled since). */
export async function currentAdmin(): Promise<AdminSession | null> {
  const session = (await getServerSession(await authOptions())) as { adminId?: number; sv?: number } | null;
  if (!session?.adminId) return null;
  // The JWT alone would outlive a sign-out or a disabled account: check the row every time.
  const admin = await findLiveAdmin(session.adminId, session.sv);
  if (!admin) return null;
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
