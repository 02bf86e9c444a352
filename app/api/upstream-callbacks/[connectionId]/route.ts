import crypto from "node:crypto";
import { Readable } from "node:stream";
import { errorResponse, jsonResponse } from "@/lib/supplier-api/responses";
import { readBody, refuseDeclaredOversize } from "@/lib/supplier-api/endpoint-request";
import { HEADER_REQUEST_ID } from "@/lib/protocol/headers";
import { receiveUpstreamCallback } from "@/lib/upstream/receive-upstream-callback";
import { appError } from "@/lib/errors";
import { isInt4IdText } from "@/lib/protocol/ids";

export const dynamic = "force-dynamic";

/** Signed order callbacks of our Profile U upstreams and Dujiao-Next suppliers (lib/upstream/receive-upstream-callback.ts). */
export async function POST(req: Request, ctx: { params: Promise<{ connectionId: string }> }) {
  const requestId = crypto.randomUUID();
  let res: Response;
  try {
    const { connectionId } = await ctx.params;
    if (!isInt4IdText(connectionId)) throw appError("not_found", "no such endpoint");
    // D7 first: a declared body over 1 MiB is 413 whoever sends it; then the headers, then the body (issue 22.2).
    refuseDeclaredOversize(req.headers.get("content-length"));
    const result = await receiveUpstreamCallback({
      connectionId: Number(connectionId),
      method: req.method,
      path: new URL(req.url).pathname,
      headers: req.headers,
      readBody: () =>
        readBody(
          req.headers.get("content-length"),
          req.body ? Readable.fromWeb(req.body as import("node:stream/web").ReadableStream) : null,
        ),
    });
    res = jsonResponse(result);
  } catch (err) {
    res = errorResponse(err, requestId);
  }
  res.headers.set(HEADER_REQUEST_ID, requestId);
  return res;
}
