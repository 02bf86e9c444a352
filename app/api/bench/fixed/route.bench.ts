// The baseline of `npm run bench:catalog`: a trivial route handler returning
// a fixed JSON body of the requested size, with no database and no
// authentication. Not in a production build (issue 34.5, decision 0081): Next
// picks up `route.bench.ts` only when the build ran with ENABLE_BENCH_ROUTES=1
// (next.config.mjs, pageExtensions); such a build still answers 404 unless the
// server too runs with ENABLE_BENCH_ROUTES=1.
import { env } from "@/lib/config/env";
export const dynamic = "force-dynamic";

const MAX_BYTES = 4 * 1024 * 1024;
const bodies = new Map<number, Uint8Array<ArrayBuffer>>();

function fixedBody(bytes: number): Uint8Array<ArrayBuffer> {
  let body = bodies.get(bytes);
  if (!body) {
    // {"ok":true,"pad":"xxxx..."} padded to exactly `bytes` bytes.
    const overhead = '{"ok":true,"pad":""}'.length;
    body = new Uint8Array(Buffer.from(`{"ok":true,"pad":"${"x".repeat(Math.max(0, bytes - overhead))}"}`));
    if (bodies.size < 16) bodies.set(bytes, body);
  }
  return body;
}

export function GET(req: Request) {
  if (env().ENABLE_BENCH_ROUTES !== "1") {
    return Response.json({ ok: false, error_code: "not_found", error_message: "no such endpoint" }, { status: 404 });
  }
  const bytes = Number(new URL(req.url).searchParams.get("bytes") ?? 90_000);
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_BYTES) {
    return Response.json(
      { ok: false, error_code: "bad_request", error_message: "bytes must be an integer from 0 to 4194304" },
      { status: 400 },
    );
  }
  return new Response(fixedBody(bytes), { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
