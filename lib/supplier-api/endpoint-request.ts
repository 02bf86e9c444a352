import { appError } from "../errors";
import { declaredOver, readCappedStream, type Deadline } from "../net/read-capped";
import { MAX_BODY_BYTES } from "../protocol/headers";
import type { Maybe } from "../maybe";

/**
 * A request as the endpoint pipeline (define-endpoint.ts) reads it, whichever
 * caller of the router (./router.ts) received it: our HTTP server's socket or
 * Next's catch-all route. Both make it with `endpointRequest`.
 */
export interface EndpointRequest {
  method: string;
  /** Path and query as the client sent them, in the URL parser's normal form (the path is what it signed). */
  target: string;
  headers: { get(name: string): string | null };
  /**
   * The Accept-Encoding a kept gzip may be sent under (decision 0025): the
   * client's on our own socket; null through Next, whose sendResponse drops
   * a route's Content-Encoding (and compresses by itself).
   */
  acceptEncoding: string | null;
  /** The raw body, refused above 1 MiB (D30); at once when the request has none (issue 40.4). */
  readBody: () => Maybe<Buffer>;
}

export function endpointRequest(r: {
  method: string;
  target: string;
  headers: EndpointRequest["headers"];
  acceptEncoding: string | null;
  /** The body's stream, or null when the request has none (nothing to wait for). */
  body: () => NodeJS.ReadableStream | null;
}): EndpointRequest {
  return {
    method: r.method,
    target: r.target,
    headers: r.headers,
    acceptEncoding: r.acceptEncoding,
    readBody: () => {
      const stream = r.body();
      return stream ? readBody(r.headers.get("content-length"), stream) : noBody(r.headers.get("content-length"));
    },
  };
}

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
  timedOut: () =>
    appError("request_timeout", `the request body did not arrive within ${BODY_TIMEOUT_MS / 1000} s`, { headers: { Connection: "close" } }),
};

/** D7, D30: a declared Content-Length over the limit is refused first, before authentication reads anything. */
export function refuseDeclaredOversize(declaredLength: string | null, limit = MAX_BODY_BYTES): void {
  if (declaredOver(declaredLength, limit)) throw tooLarge();
}

/**
 * THE body reader of the supplier API (and the Profile U callback route):
 * the raw bytes, refusing more than 1 MiB (D30) before the body is read
 * whole: a declared Content-Length above the limit is refused without
 * reading, and a chunked or lying body is counted while it streams and
 * abandoned at the first byte over (the stream is paused, not destroyed, so
 * the 413 is still answered on the same socket).
 */
export function readBody(declaredLength: string | null, stream: NodeJS.ReadableStream | null): Promise<Buffer> {
  if (!stream) return new Promise((resolve) => resolve(noBody(declaredLength)));
  return readCappedStream(stream, { declaredLength: declaredLength ?? undefined, limit: MAX_BODY_BYTES, tooLarge, deadline: DEADLINE });
}

/** The body of a request that has none: at once (issue 40.4), unless it declared one over the limit. */
function noBody(declaredLength: string | null): Buffer {
  refuseDeclaredOversize(declaredLength);
  return NO_BODY;
}

const NO_BODY = Buffer.alloc(0);
