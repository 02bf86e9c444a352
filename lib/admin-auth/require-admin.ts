import { getServerSession, type NextAuthOptions } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { AdminSession } from "./admin-session";
import { authOptions } from "./auth-options";
import { clientIp } from "../net/client-address";
import { findLiveAdmin } from "./live-admin";

/**
 * Issue 22.8: an administrator whose password start generated may use the
 * password page (and its action, and sign out), nothing else, until they
 * chose their own. Only those three pass `passwordChange: "pending-allowed"`.
 */
export interface SessionOptions {
  passwordChange?: "required-first" | "pending-allowed";
}

async function liveSession(): Promise<{ admin: AdminSession; passwordChangeRequired: boolean } | null> {
  const session = await getServerSession<NextAuthOptions, { adminId?: number; sv?: number }>(await authOptions());
  if (!session?.adminId) return null;
  // The JWT alone would outlive a sign-out or a disabled account: check the row every time.
  const admin = await findLiveAdmin(session.adminId, session.sv);
  if (!admin) return null;
  return {
    admin: { id: admin.id, email: admin.email, ip: clientIp(await headers()) },
    passwordChangeRequired: admin.passwordChangeRequired,
  };
}

/** The signed-in administrator, or null (expired, signed out, password changed, disabled since; or a required password change pending). */
export async function currentAdmin({ passwordChange = "required-first" }: SessionOptions = {}): Promise<AdminSession | null> {
  const live = await liveSession();
  if (!live || (live.passwordChangeRequired && passwordChange !== "pending-allowed")) return null;
  return live.admin;
}

/**
 * Every admin page (through the console layout) AND every server action calls
 * this first: a request without a valid session is sent to the sign-in page
 * and nothing else runs; one whose generated password must still be changed
 * is sent to the password page (issue 22.8).
 */
export async function requireAdmin({ passwordChange = "required-first" }: SessionOptions = {}): Promise<AdminSession> {
  const live = await requireSession();
  if (live.passwordChangeRequired && passwordChange !== "pending-allowed") redirect("/admin/password");
  return live.admin;
}

/** For the console layout: the session, or the sign-in page; a pending password change is the layout's to show. */
export async function requireSession(): Promise<{ admin: AdminSession; passwordChangeRequired: boolean }> {
  const live = await liveSession();
  if (!live) redirect("/admin/sign-in");
  return live;
}
