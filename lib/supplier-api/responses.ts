import { z } from "zod";
import { AppError, appError } from "../errors";
import { log } from "../log";
import { ERROR_STATUS, type ErrorBody } from "../protocol/errors";
import { zodMessage } from "./zod-message";

// The responses of the supplier API edge (D1, D2): success bodies and the D1
// error body, shared by defineEndpoint, route-methods and the upstream
// callback route.

/** D2 success response. */
export function jsonResponse(body: object, status = 200): Response {
  return jsonText(JSON.stringify(body), status);
}

/** A success response from already-serialized JSON (the catalogue cache serves these). */
export function jsonText(text: string | Uint8Array<ArrayBuffer>, status = 200): Response {
  return new Response(text, { status, headers: { "Content-Type": "application/json; charset=utf-8" } });
}

export function errorResponse(err: unknown, requestId: string): Response {
  if (err instanceof AppError) {
    const body: ErrorBody = { ok: false, error_code: err.code, error_message: err.publicMessage };
    const res = jsonResponse(body, err.status);
    for (const [k, v] of Object.entries(err.headers)) res.headers.set(k, v);
    return res;
  }
  if (err instanceof z.ZodError) return errorResponse(appError("bad_request", zodMessage(err)), requestId);
  // Unknown error: the log line carries the request id and where it happened,
  // not the message (it could quote a value from the request or a query).
  const e = err as { name?: string; code?: string; stack?: string } | null;
  log.error(
    { requestId, errorName: e?.name ?? typeof err, errorCode: e?.code, at: e?.stack?.split("\n").slice(1, 6).join(" | ") },
    "supplier api internal error",
  );
  const body: ErrorBody = { ok: false, error_code: "internal_error", error_message: "internal error" };
  return jsonResponse(body, ERROR_STATUS.internal_error);
}
