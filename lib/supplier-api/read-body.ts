import { MAX_BODY_BYTES } from "../protocol/headers";
import { appError } from "../errors";
import type http from "node:http";
import { declaredOver, readCapped, readCappedStream, type Deadline } from "../net/read-capped";

// The rest of the body is never read, so the connection cannot be reused: ask to close it.
const tooLarge = () =>
  appError("request_too_large", `request body is larger than ${MAX_BODY_BYTES} bytes`, { headers: { Connection: "close" } });

/**
 * Issue 22.2: a body is read only for an authenticated request, and it must
 * arrive within 15 s of that (an HTTP client sends it right after the
 * headers); otherwise 408 request_timeout and the connection is closed.
 */
export const BODY_TIMEOUT_MS = 15_000;
const DEADLINE: Deadline = {
  timeoutMs: BODY_TIMEOUT_MS,
  timedOut: () => appError("request_timeout", `the request body did not arrive within ${BODY_TIMEOUT_MS / 1000} s`, { headers: { Connection: "close" } }),
};

/** D7, D30: a declared Content-Length over the limit is refused first, before authentication reads anything. */
export function refuseDeclaredOversize(declaredLength: string | null, limit = MAX_BODY_BYTES): void {
  if (declaredOver(declaredLength, limit)) throw tooLarge();
}

/**
 * Reads the raw body bytes, refusing more than `limit` bytes (D30) before the
 * body is read whole: a declared Content-Length above the limit is refused
 * without reading, and a chunked or lying body is counted while it streams
 * and abandoned at the first byte over.
 */
export function readBodyLimited(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return readCapped(req.body, { declaredLength: req.headers.get("content-length"), limit, tooLarge, deadline: DEADLINE });
}

/** readBodyLimited for a request our HTTP server reads itself (lib/ops/direct-dispatch.ts). */
export function readNodeBodyLimited(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declaredLength = req.headers["content-length"];
  // No Content-Length and no Transfer-Encoding: a request without a body (RFC 9112 6.3), as
  // nearly every GET is. Nothing to wait for; Node discards the empty stream when the answer ends.
  if ((declaredLength === undefined || declaredLength === "0") && req.headers["transfer-encoding"] === undefined) return NO_BODY;
  return readCappedStream(req, { declaredLength, limit, tooLarge, deadline: DEADLINE });
}

const NO_BODY = Promise.resolve(Buffer.alloc(0));
