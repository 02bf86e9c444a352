import ipaddr from "ipaddr.js";

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

/**
 * Issue 22.3: the unit sign-in throttling counts. One IPv6 host is normally
 * given a whole /64 (SLAAC, privacy addresses), so counting per /128 would
 * hand one attacker 2^64 fresh allowances; an IPv6 address counts as its /64
 * (`2001:db8:1:2::/64`). IPv4 stays per address, and an IPv4-mapped IPv6
 * address (::ffff:192.0.2.1, a dual-stack socket) counts as that IPv4 address.
 * Anything else (`unknown`) is its own group.
 */
export function throttleGroup(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip); // unwraps IPv4-mapped IPv6
  if (addr.kind() === "ipv4") return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
