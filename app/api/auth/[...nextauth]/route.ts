import NextAuth from "next-auth";
import { authOptions } from "@/lib/admin-auth/auth-options";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: the cookies' Secure flag follows the public_base_url setting.
async function handler(req: Request, ctx: Ctx) {
  return NextAuth(req as never, ctx as never, await authOptions());
}
export { handler as GET, handler as POST };
