import crypto from "node:crypto";
import type { ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import Negotiator from "negotiator";
import { z } from "zod";
import { AppError, appError } from "../errors";
import { log } from "../log";
import { ERROR_STATUS, type ErrorBody } from "../protocol/errors";
import { HEADER_REQUEST_ID } from "../protocol/headers";
import type { Profile } from "../protocol/profiles";
import { zodMessage } from "./zod-message";

// The answers of the supplier API edge (D1, D2): success bodies and the D1
// error body, shared by the pipeline (define-endpoint.ts) and the upstream
// callback route. An Answer is not yet tied to a transport: the router's
// Next caller turns it into a Response, our HTTP server writes it to the
// socket as it is (decisions 0023, 0036).

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /**
   * Issue 40.3 (decision 0095): when set, the body is these chunks instead of
   * `body` (empty), length unknown (chunked). Both transports write it with
   * backpressure; a chunk that fails aborts the connection, so a client never
   * takes a cut-off body for a whole one.
   */
  stream?: AsyncIterable<Uint8Array>;
}

const JSON_TYPE = "application/json; charset=utf-8";
const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

/**
 * A success body that is already serialized JSON (the catalogue cache serves
 * these): the bytes, or a function that makes them (a page kept in pieces is
 * joined only when sent uncompressed). `gzip`: the same body gzipped; null
 * when it will be but is not yet (the answer varies by Accept-Encoding all
 * the same); absent when never.
 */
export class JsonText {
  constructor(
    private readonly body: Uint8Array | (() => Uint8Array),
    readonly gzip?: Uint8Array | null,
  ) {}

  get bytes(): Uint8Array {
    return typeof this.body === "function" ? this.body() : this.body;
  }
}

/** A success body written as it is made (issue 40.3: a large order's keys), never held whole. */
export class JsonStream {
  constructor(readonly chunks: () => AsyncIterable<Uint8Array>) {}
}

export function jsonText(text: string | Uint8Array | (() => Uint8Array), gzip?: Uint8Array | null): JsonText {
  return new JsonText(typeof text === "string" ? encoder.encode(text) : text, gzip);
}

/**
 * D2 success answer, or any JSON body with `status`. A body kept gzipped is
 * sent gzipped to a client whose Accept-Encoding prefers it to identity.
 */
export function jsonAnswer(body: object, status = 200, acceptEncoding: string | null = null): Answer {
  if (body instanceof JsonStream) return { ...bytesAnswer(EMPTY, status), stream: body.chunks() };
  if (!(body instanceof JsonText)) return bytesAnswer(encoder.encode(JSON.stringify(body)), status);
  if (body.gzip === undefined) return bytesAnswer(body.bytes, status);
  const gzip = body.gzip && prefersGzip(acceptEncoding) ? body.gzip : undefined;
  const answer = bytesAnswer(gzip ?? body.bytes, status);
  answer.headers.Vary = "Accept-Encoding";
  if (gzip) answer.headers["Content-Encoding"] = "gzip";
  return answer;
}

/**
 * RFC 9110 12.5.3, q-values included (negotiator, as Express uses). Clients
 * send one of a few Accept-Encoding values, each time: the answer per value
 * is kept (negotiating anew was the most garbage any step of a page read made).
 */
export function prefersGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  let gzip = negotiated.get(acceptEncoding);
  if (gzip === undefined) {
    gzip = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }).encoding(["identity", "gzip"]) === "gzip";
    if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
    if (acceptEncoding.length <= MAX_NEGOTIATED_CHARS) negotiated.set(acceptEncoding, gzip);
  }
  return gzip;
}

const MAX_NEGOTIATED = 256;
const MAX_NEGOTIATED_CHARS = 200;
const negotiated = new Map<string, boolean>();

function bytesAnswer(body: Uint8Array, status: number): Answer {
  return { status, headers: { "Content-Type": JSON_TYPE }, body };
}

export function errorAnswer(err: unknown, requestId: string): Answer {
  if (err instanceof AppError) {
    const body: ErrorBody = { ok: false, error_code: err.code, error_message: err.publicMessage };
    const answer = jsonAnswer(body, err.status);
    Object.assign(answer.headers, err.headers);
    return answer;
  }
  if (err instanceof z.ZodError) return errorAnswer(appError("bad_request", zodMessage(err)), requestId);
  // Unknown error: the log line carries the request id and where it happened,
  // not the message (it could quote a value from the request or a query).
  const e = err as { name?: string; code?: string; stack?: string } | null;
  log.error(
    { requestId, errorName: e?.name ?? typeof err, errorCode: e?.code, at: e?.stack?.split("\n").slice(1, 6).join(" | ") },
    "supplier api internal error",
  );
  const body: ErrorBody = { ok: false, error_code: "internal_error", error_message: "internal error" };
  return jsonAnswer(body, ERROR_STATUS.internal_error);
}

export function toResponse(answer: Answer): Response {
  // A stream that fails errors the web stream: Next then aborts the response (no clean end).
  const body = answer.stream
    ? (Readable.toWeb(Readable.from(answer.stream)) as ReadableStream<Uint8Array>)
    : (answer.body as Uint8Array<ArrayBuffer>);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** The same Answer on our HTTP server's socket (decision 0036). */
export function writeAnswer(res: ServerResponse, answer: Answer): void {
  if (!answer.stream) {
    res.writeHead(answer.status, { ...answer.headers, "Content-Length": String(answer.body.length) }).end(answer.body);
    return;
  }
  // Issue 40.3: chunked, with backpressure; a failed chunk destroys the socket (no terminating chunk).
  res.writeHead(answer.status, answer.headers);
  pipeline(Readable.from(answer.stream), res, (err) => {
    if (err) log.warn({ err: err.message }, "supplier api streamed answer aborted");
  });
}

export const jsonResponse = (body: object, status = 200): Response => toResponse(jsonAnswer(body, status));
export const errorResponse = (err: unknown, requestId: string): Response => toResponse(errorAnswer(err, requestId));

/**
 * A refusal before any endpoint is chosen (the router's 404 not_found, 405
 * method_not_allowed, 400 for a path it cannot decode): the D1 body, request
 * id and log line of the pipeline, nothing read, nothing authenticated (the
 * answer says only what the public specification says: which paths and
 * methods exist).
 */
export function refusal(err: AppError, method: string, profile: Profile | null): Answer {
  const requestId = crypto.randomUUID();
  return finish(errorAnswer(err, requestId), requestId, { profile, endpoint: err.code, method, started: undefined, credentialId: null });
}

/**
 * Every answer of the supplier API ends here: X-Request-Id (D1); no cache may
 * keep it, no browser may guess its type (it carries card keys and balances,
 * issue 22.7); one log line per request.
 */
export function finish(
  answer: Answer,
  requestId: string,
  line: { profile: Profile | null; endpoint: string; method: string; started: number | undefined; credentialId: number | null },
): Answer {
  answer.headers[HEADER_REQUEST_ID] = requestId;
  answer.headers["Cache-Control"] = "no-store";
  answer.headers["X-Content-Type-Options"] = "nosniff";
  // Guarded: the line's fields are not even gathered at LOG_LEVEL=warn (this runs on every request).
  if (log.isLevelEnabled("info")) {
    log.info(
      {
        requestId,
        profile: line.profile,
        endpoint: line.endpoint,
        method: line.method,
        status: answer.status,
        ...(line.started === undefined ? {} : { durationMs: Math.round((performance.now() - line.started) * 10) / 10 }),
        credentialId: line.credentialId,
      },
      "supplier api request",
    );
  }
  return answer;
}
