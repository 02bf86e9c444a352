import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { auditAdmin } from "./audit-admin";
import { clientIp } from "./client-ip";
import { verifySignIn } from "./verify-sign-in";

/** Admin sessions are signed JWT cookies that expire after this long (re-sign-in needed). */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/**
 * next-auth v4: one credentials provider backed by verifySignIn. A refused
 * sign-in throws an Error whose message is the reason code ("invalid",
 * "locked", "totp_required"); the sign-in page maps it to a translated text.
 * NEXTAUTH_SECRET comes from the environment (scripts/start.ts generates it).
 */
export const authOptions: NextAuthOptions = {
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
        const result = await verifySignIn({
          email: String(credentials?.email ?? ""),
          password: String(credentials?.password ?? ""),
          code: credentials?.code ? String(credentials.code) : undefined,
          ip: clientIp(req?.headers ?? {}),
        });
        if (!result.ok) throw new Error(result.reason);
        return { id: String(result.admin.id), email: result.admin.email };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) token.adminId = Number(user.id);
      return token;
    },
    async session({ session, token }) {
      return { ...session, adminId: typeof token.adminId === "number" ? token.adminId : undefined };
    },
  },
  events: {
    async signOut({ token }) {
      const adminId = typeof token?.adminId === "number" ? token.adminId : undefined;
      if (adminId) await auditAdmin({ adminUserId: adminId, actor: String(token.email ?? adminId), action: "admin.sign_out", targetType: "admin_user", targetId: String(adminId) });
    },
  },
  logger: {
    // next-auth logs credential errors with the thrown message only; keep its
    // noise out of the server log without hiding real configuration errors.
    error(code, metadata) {
      if (code === "CREDENTIALS_SIGNIN_ERROR" || code === "CLIENT_FETCH_ERROR") return;
      console.error(`[next-auth] ${code}`, metadata instanceof Error ? metadata.message : "");
    },
    warn() {},
    debug() {},
  },
};
