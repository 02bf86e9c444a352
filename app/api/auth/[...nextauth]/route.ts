import NextAuth from "next-auth";
import { authOptions } from "@/lib/admin-auth/auth-options";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: the cookies' Secure flag follows the public_base_url setting.
async function handler(req: Request, ctx: Ctx): Promise<Response> {
  // next-auth types its route handler loosely (any): in the App Router it answers a Response.
  return (await NextAuth(req as never, ctx as never, await authOptions())) as Response;
}
export { handler as GET, handler as POST };
