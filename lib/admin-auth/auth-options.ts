import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { cookies } from "next/headers";
import { db } from "../db/client";
import { writeAuditLog } from "../audit/write-audit-log";
import { clientIp } from "../net/client-address";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, issueDeviceCookie, isTrustedDevice } from "./device-cookie";
import { endAllSessions, findLiveAdmin } from "./live-admin";
import { cookiesMustBeSecure } from "./secure-cookies";
import { verifySignIn } from "./verify-sign-in";

/** Admin sessions are signed JWT cookies that expire after this long (re-sign-in needed). */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** A session whose admin was disabled, or whose version was bumped (sign-out elsewhere, password change). */
class SessionRevoked extends Error {
  override name = "SessionRevoked";
}
const isRevoked = (m: unknown) =>
  (m as Error | undefined)?.name === "SessionRevoked" || (m as { error?: Error } | undefined)?.error?.name === "SessionRevoked";

/**
 * next-auth v4 options, built per request because the Secure flag follows the
 * public_base_url setting (secure-cookies.ts). One credentials provider backed
 * by verifySignIn; a refused sign-in throws an Error whose message is the
 * reason code ("invalid", "totp_required") for the sign-in page. The JWT
 * carries the admin's session version and is checked against the database on
 * every request (jwt callback; requireAdmin checks again through currentAdmin).
 */
export async function authOptions(): Promise<NextAuthOptions> {
  const secure = await cookiesMustBeSecure();
  return {
    useSecureCookies: secure,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/admin/sign-in", error: "/admin/sign-in" },
    providers: [
      CredentialsProvider({
        name: "credentials",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Code", type: "text" },
        },
        async authorize(credentials, req) {
          const email = String(credentials?.email ?? "")
            .trim()
            .toLowerCase();
          const jar = await cookies();
          const result = await verifySignIn({
            email,
            password: String(credentials?.password ?? ""),
            code: credentials?.code ? String(credentials.code) : undefined,
            ip: clientIp(req?.headers ?? {}),
            trustedDevice: isTrustedDevice(jar.get(DEVICE_COOKIE)?.value, email),
          });
          if (!result.ok) throw new Error(result.reason);
          jar.set(DEVICE_COOKIE, issueDeviceCookie(result.admin.email), {
            httpOnly: true,
            sameSite: "lax",
            secure,
            path: "/",
            maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
          });
          return { id: String(result.admin.id), email: result.admin.email, sessionVersion: result.admin.sessionVersion };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) return { ...token, adminId: Number(user.id), sv: (user as { sessionVersion?: number }).sessionVersion ?? 0 };
        // Throwing makes next-auth drop the session and clear its cookie.
        if (!(await findLiveAdmin(token.adminId, token.sv))) throw new SessionRevoked("session revoked");
        return token;
      },
      session({ session, token }) {
        return { ...session, adminId: typeof token.adminId === "number" ? token.adminId : undefined, sv: token.sv };
      },
    },
    events: {
      async signOut({ token }) {
        const adminId = typeof token?.adminId === "number" ? token.adminId : undefined;
        if (!adminId || typeof token.sv !== "number") return;
        // Only a live session can sign out: an old copied cookie must not end the owner's sessions.
        if (!(await endAllSessions(adminId, token.sv))) return;
        await writeAuditLog(db(), {
          actor: { kind: "admin", id: adminId },
          action: "admin.sign_out",
          targetType: "admin_user",
          targetId: String(adminId),
        });
      },
    },
    logger: {
      // next-auth logs credential errors with the thrown message only; keep its
      // noise (and revoked sessions) out of the server log without hiding real
      // configuration errors.
      error(code, metadata) {
        if (code === "CREDENTIALS_SIGNIN_ERROR" || code === "CLIENT_FETCH_ERROR") return;
        if (code === "JWT_SESSION_ERROR" && isRevoked(metadata)) return;
        console.error(`[next-auth] ${code}`, metadata instanceof Error ? metadata.message : "");
      },
      warn() {},
      debug() {},
    },
  };
}
