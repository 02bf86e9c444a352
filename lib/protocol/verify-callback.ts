import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP, TIMESTAMP_WINDOW_SECONDS } from "./headers";
import { verifySignature } from "./signing";
import { z } from "zod";
import { CatalogEventSchema, type CatalogEventWire } from "./catalog-event-wire";
import { OrderCallbackSchema, type OrderCallback } from "./wire-responses";

// Profile U callbacks (section 6, D27) as the receiving downstream checks
// them: the same header scheme as requests, signed over the callback URL's
// path, with the secret of the key that created the order. Catalogue events
// (issue 12.2, kind catalog.updated) are signed the same way, with the key
// that registered the webhook; `event.event` tells the two apart.

const EventSchema = z.discriminatedUnion("event", [OrderCallbackSchema, CatalogEventSchema]);

export type CallbackHeaders = Headers | Record<string, string | string[] | undefined>;

export type VerifiedCallback = { ok: true; event: OrderCallback | CatalogEventWire; apiKey: string } | { ok: false; error: string };

function header(headers: CallbackHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : headers[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Verify a callback before acting on it. `rawBody` is the exact bytes
 * received (not re-serialized JSON); `path` is the path of your callback URL
 * as you registered it (a query string is ignored, D27). The timestamp must be
 * within ±60 s of `now`. Returns the typed event, or why it was refused.
 */
export function verifyCallback(
  rawBody: string | Uint8Array,
  headers: CallbackHeaders,
  secret: string,
  path: string,
  opts: { now?: number; windowSeconds?: number } = {},
): VerifiedCallback {
  const apiKey = header(headers, HEADER_API_KEY);
  const timestamp = header(headers, HEADER_TIMESTAMP);
  const signature = header(headers, HEADER_SIGNATURE);
  if (!apiKey || !timestamp || !signature) return { ok: false, error: "missing Svc-* header" };
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { ok: false, error: "malformed timestamp" };
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (opts.windowSeconds ?? TIMESTAMP_WINDOW_SECONDS))
    return { ok: false, error: "timestamp outside the window" };
  if (!verifySignature({ method: "POST", path, timestamp, body: rawBody, secret, signature })) return { ok: false, error: "bad signature" };
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8"));
  } catch {
    return { ok: false, error: "body is not JSON" };
  }
  const parsed = EventSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, error: `not an order.updated or catalog.updated event: ${parsed.error.issues[0]?.path.join(".") || "body"}` };
  return { ok: true, event: parsed.data, apiKey };
}
