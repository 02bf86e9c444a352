import { serveAcg } from "@/lib/acg/serve-acg";

export const dynamic = "force-dynamic";

// Issue 37.2 (decision 0091): ACG-Faka's shared-store protocol, mounted at
// /acg (a shop enters https://our.site/acg as its supplier domain). Our server
// hands every path that is not the supplier API to Next, so `npm start` serves it here.
async function handle(req: Request): Promise<Response> {
  const a = await serveAcg(req);
  return new Response(a.body, { status: a.status, headers: { "content-type": a.contentType, ...a.headers } });
}

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const DELETE = handle;
export const PATCH = handle;
