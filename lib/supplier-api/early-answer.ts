import crypto from "node:crypto";
import { type ErrorBody } from "../protocol/errors";
import { HEADER_REQUEST_ID } from "../protocol/headers";
import type { AppError } from "../errors";
import { appError } from "../errors";

// Issues 8.1 and 8.2: Next's router answers some request targets before any
// route handler runs: a path with broken percent-encoding ("/v1/provider/%zz")
// with a bare 500, an empty path segment ("/v1/provider/", "/v1//ping") with a
// 308 redirect. Our HTTP server (lib/ops/http-server.ts) asks this first, so
// under the four supplier prefixes such a request gets the D1 body with
// X-Request-Id (400 bad_request, 404 not_found), and elsewhere a plain 400.

const SUPPLIER_PREFIX = /^\/(?:api\/)?v1\/(?:upstream|provider)(?:\/|\?|$)/;

/** A request target under one of the four prefixes of the supplier API. */
export const isSupplierTarget = (target: string): boolean => SUPPLIER_PREFIX.test(target);

export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An answer for a request target Next would not route to a handler, or null to hand the request to Next. */
export function earlyAnswer(target: string): EarlyAnswer | null {
  const pathname = target.split("?")[0];
  const supplier = SUPPLIER_PREFIX.test(pathname);
  if (!isDecodable(pathname)) {
    if (!supplier) return { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" }, body: "Bad Request" };
    return d1(appError("bad_request", "the request path has malformed percent-encoding"));
  }
  if (supplier && /\/\/|\/$/.test(pathname)) return d1(appError("not_found", "no such endpoint"));
  return null;
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function d1(err: AppError): EarlyAnswer {
  const body: ErrorBody = { ok: false, error_code: err.code, error_message: err.publicMessage };
  return {
    status: err.status,
    headers: { "Content-Type": "application/json; charset=utf-8", [HEADER_REQUEST_ID]: crypto.randomUUID() },
    body: JSON.stringify(body),
  };
}
