import { MAX_BODY_BYTES } from "../protocol/headers";
import { appError } from "../errors";
import type http from "node:http";
import { readCapped, readCappedStream } from "../net/read-capped";

// The rest of the body is never read, so the connection cannot be reused: ask to close it.
const tooLarge = () =>
  appError("request_too_large", `request body is larger than ${MAX_BODY_BYTES} bytes`, { headers: { Connection: "close" } });

/**
 * Reads the raw body bytes, refusing more than `limit` bytes (D30) before the
 * body is read whole: a declared Content-Length above the limit is refused
 * without reading, and a chunked or lying body is counted while it streams
 * and abandoned at the first byte over.
 */
export function readBodyLimited(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return readCapped(req.body, { declaredLength: req.headers.get("content-length"), limit, tooLarge });
}

/** readBodyLimited for a request our HTTP server reads itself (lib/ops/direct-dispatch.ts). */
export function readNodeBodyLimited(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declaredLength = req.headers["content-length"];
  // No Content-Length and no Transfer-Encoding: a request without a body (RFC 9112 6.3), as
  // nearly every GET is. Nothing to wait for; Node discards the empty stream when the answer ends.
  if ((declaredLength === undefined || declaredLength === "0") && req.headers["transfer-encoding"] === undefined) return NO_BODY;
  return readCappedStream(req, { declaredLength, limit, tooLarge });
}

const NO_BODY = Promise.resolve(Buffer.alloc(0));
