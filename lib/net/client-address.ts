// The one module for the client's address (issue 23): our HTTP server works
// it out from the socket and TRUSTED_PROXIES and writes it into a header
// (setClientAddress); handlers, sign-in and the audit log read it back
// (clientIp); sign-in throttling groups it (throttleGroup).
import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import type { TrustProxy } from "../config/trusted-proxies";

/**
 * Issue 8.5: the client's address from the socket, or with trusted proxies
 * the right-most X-Forwarded-For hop that is not one of them (proxy-addr, the
 * library behind Express's "trust proxy"). IPv4-mapped IPv6 (::ffff:a.b.c.d)
 * becomes plain IPv4, so one client has one rate-limit key however it connects.
 */
export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  const known = fromPeer.get(req.socket);
  if (known !== undefined) return known;
  const proxied = proxyaddr(req, trust);
  const address = ipaddr.isValid(proxied) ? ipaddr.process(proxied).toString() : "unknown";
  const peer = req.socket.remoteAddress;
  if (peer !== undefined && !trust(peer, 0)) fromPeer.set(req.socket, address);
  return address;
}

// A connection from a peer that is not a trusted proxy has one client address,
// its peer's, whatever its requests' headers say: worked out once per
// connection, not parsed again on every request it carries (issue 13.4).
const fromPeer = new WeakMap<object, string>();

/** Overwrites the client-address header (dropping every copy the client sent) before Next sees the request. */
export function setClientAddress(req: IncomingMessage, trust: TrustProxy): void {
  const address = clientAddressOf(req, trust);
  const sent = req.headers[CLIENT_ADDRESS_HEADER] !== undefined;
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  if (!sent) {
    // Nearly every request: no copy to drop, so no new array (this runs on every request).
    req.rawHeaders.push(CLIENT_ADDRESS_HEADER, address);
    return;
  }
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== CLIENT_ADDRESS_HEADER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  raw.push(CLIENT_ADDRESS_HEADER, address);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
}

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
