import type { z } from "zod";
import {
  DUJIAO_HEADER_API_KEY,
  DUJIAO_HEADER_SIGNATURE,
  DUJIAO_HEADER_TIMESTAMP,
  DUJIAO_PREFIX,
  DujiaoErrorSchema,
} from "../protocol/dujiao-next";
import { signRequest } from "../protocol/signing";
import { sendAndRead } from "./upstream-answer";
import type { UpstreamEndpoint } from "./upstream-client";
import { UpstreamError } from "./upstream-error";

// Issue 37.3 (decision 0092): one signed request to a Dujiao-Next supplier, as
// their own client sends it (internal/upstream/dujiao_next.go doRequest): the
// signed path is DUJIAO_PREFIX/... without the query string, whatever the
// base URL; their headers; our timeouts, no redirects, capped bodies (as
// upstream-client.ts). Only a code from their known list is kept from an
// error answer; their error_message is never read.

/** Every error_code their server or auth middleware sends (upstream_handler.go, router/upstream_auth.go). */
const THEIR_CODES = new Set([
  "bad_request",
  "sku_unavailable",
  "product_unavailable",
  "product_not_found",
  "insufficient_balance",
  "insufficient_stock",
  "invalid_callback_url",
  "payment_failed",
  "unauthorized",
  "missing_auth_headers",
  "invalid_timestamp",
  "timestamp_expired",
  "invalid_signature",
  "invalid_api_key",
  "user_disabled",
  "order_not_found",
  "cancel_not_allowed",
  "internal_error",
]);

/** Their code when it is one of theirs, else null (so no text they chose is kept). */
export function theirCode(raw: unknown): string | null {
  return typeof raw === "string" && THEIR_CODES.has(raw) ? raw : null;
}

export type DujiaoEndpoint = Omit<UpstreamEndpoint, "profile">;

/**
 * Sends one request and returns the HTTP status with the parsed 200 body.
 * Any other status is an UpstreamError "http" with their code, as their own
 * client treats every non-200 answer as an error; a 200 body that `schema`
 * does not accept is "invalid".
 */
export async function dujiaoCall<T>(
  endpoint: DujiaoEndpoint,
  timeoutMs: number,
  schema: z.ZodType<T>,
  method: "GET" | "POST",
  pathWithQuery: string,
  body?: object,
): Promise<T> {
  const path = DUJIAO_PREFIX + pathWithQuery;
  const bytes = body === undefined ? "" : JSON.stringify(body);
  const ts = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    [DUJIAO_HEADER_API_KEY]: endpoint.apiKey,
    [DUJIAO_HEADER_TIMESTAMP]: String(ts),
    [DUJIAO_HEADER_SIGNATURE]: signRequest({ method, path, timestamp: ts, body: bytes, secret: endpoint.apiSecret }),
    ...(body === undefined ? {} : { "Content-Type": "application/json" }),
  };
  const { res, json } = await sendAndRead(
    (init) => fetch(endpoint.baseUrl.replace(/\/+$/, "") + path, { ...init, method, headers, body: method === "GET" ? undefined : bytes }),
    timeoutMs,
  );
  if (res.status !== 200) {
    const parsed = DujiaoErrorSchema.safeParse(json);
    const code = parsed.success ? theirCode(parsed.data.error_code) : null;
    throw new UpstreamError("http", `HTTP ${res.status}${code ? ` ${code}` : ""}`, res.status, code);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new UpstreamError("invalid", `unexpected answer from ${method} ${path}`, res.status);
  return parsed.data;
}
