import { readUpload } from "@/lib/catalog/save-upload";

// Public product pictures uploaded in the console (DATA_DIR/uploads). Names
// are random; traversal and anything that is not an image answer 404.
export async function GET(_req: Request, ctx: { params: Promise<{ path: string[] }> }) {
  const file = await readUpload((await ctx.params).path.map((s) => decodeURIComponent(s)));
  if (!file) return new Response("not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(new Uint8Array(file.bytes), {
    headers: { "Content-Type": file.mime, "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'" },
  });
}
