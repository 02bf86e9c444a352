import { referenceAsset } from "@/lib/api-docs/reference-page";

// The reference page's scripts and styles, from node_modules/swagger-ui-dist (whitelisted names only).
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const asset = await referenceAsset((await ctx.params).file);
  if (!asset) return new Response("not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(typeof asset.body === "string" ? asset.body : new Uint8Array(asset.body), {
    headers: { "Content-Type": asset.type, "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" },
  });
}
