import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { CLIENT_ADDRESS_HEADER } from "../admin-auth/client-ip";
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
