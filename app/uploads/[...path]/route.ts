import { matchesIfNoneMatch, readUpload } from "@/lib/catalog/read-upload";

// Public product pictures uploaded in the console, from the database (issue
// 27.1, decision 0044), so every instance answers the same. A name never
// changes its content (new names are the content's SHA-256), hence a strong
// ETag and a year of caching; a revalidation is a 304 without the bytes.
// Anything not stored answers 404.
export async function GET(req: Request, ctx: { params: Promise<{ path: string[] }> }) {
  let segments: string[];
  try {
    segments = (await ctx.params).path.map((s) => decodeURIComponent(s));
  } catch {
    segments = []; // a malformed %-escape: not a name we store
  }
  const file = await readUpload(segments);
  if (!file) return new Response("not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const etag = `"${file.sha256}"`;
  const headers = {
    ETag: etag,
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'",
  };
  if (matchesIfNoneMatch(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(file.bytes), {
    headers: { ...headers, "Content-Type": file.contentType, "Content-Length": String(file.bytes.length) },
  });
}
