/**
 * The header our HTTP server (scripts/server.ts) sets on every request to the
 * client's address, computed from the socket and TRUSTED_PROXIES (issue 8.5).
 * Any copy a client sends is removed first, so route handlers, which cannot
 * see the socket, can trust it.
 */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/**
 * The one source of the client's address: the per-IP rate limit of the
 * supplier API (D31), the audit log and sign-in throttling all use it. Never
 * X-Forwarded-For itself: any client can write that. Null when the request did
 * not come through our server (e.g. `next dev`).
 */
export function clientIp(headers: HeaderSource): string | null {
  const value =
    typeof (headers as { get?: unknown }).get === "function"
      ? (headers as { get(n: string): string | null }).get(CLIENT_ADDRESS_HEADER)
      : (headers as Record<string, string | string[] | undefined>)[CLIENT_ADDRESS_HEADER];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text ? text.slice(0, 100) : null;
}
