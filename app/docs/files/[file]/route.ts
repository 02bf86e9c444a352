import { readDownload } from "@/lib/api-docs/downloads";

export const dynamic = "force-dynamic";

/** GET /docs/files/{file}: the protocol guide, the decisions, the typed client and the conformance kit (whitelisted names only). */
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const file = await readDownload((await ctx.params).file);
  if (!file) return new Response("not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(new Uint8Array(file.body), {
    headers: { "Content-Type": file.type, "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" },
  });
}
