import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import type { TrustProxy } from "../config/trusted-proxies";

// Issue 37.2, decision 0091: whether a request reached us over a channel
// nobody else can read: HTTPS, or this machine's loopback. Our server speaks
// plain HTTP; TLS ends at a proxy in front, whose X-Forwarded-Proto counts
// only when the socket's peer is one of TRUSTED_PROXIES (as its
// X-Forwarded-For, lib/net/client-address.ts). Route handlers cannot see the
// socket, and Next adds X-Forwarded-* headers of its own before they run, so
// our server decides here and writes the answer into a header (any copy a
// client sent is replaced), as it does the client address.

export const CLIENT_SECURE_HEADER = "x-client-secure";

export function setClientSecure(req: IncomingMessage, trust: TrustProxy): void {
  const value = isSecure(req, trust) ? "1" : "0";
  const sent = req.headers[CLIENT_SECURE_HEADER] !== undefined;
  req.headers[CLIENT_SECURE_HEADER] = value;
  if (!sent) {
    req.rawHeaders.push(CLIENT_SECURE_HEADER, value); // nearly every request: nothing to drop
    return;
  }
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== CLIENT_SECURE_HEADER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  raw.push(CLIENT_SECURE_HEADER, value);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
}

/**
 * HTTPS as a trusted proxy reports it, or a loopback peer that sent no proxy
 * header at all (an operator's own test, our tests). A proxy on this machine
 * that nobody declared trusted sends X-Forwarded-For or -Proto, so what it
 * relays is not taken for a local request.
 */
function isSecure(req: IncomingMessage, trust: TrustProxy): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted === true) return true;
  const peer = req.socket.remoteAddress;
  if (peer === undefined) return false;
  const proto = req.headers["x-forwarded-proto"];
  if (trust(peer, 0)) {
    const last = (Array.isArray(proto) ? proto.join(",") : (proto ?? "")).split(",").pop()!.trim().toLowerCase();
    if (last === "https") return true;
  }
  const proxied = proto !== undefined || req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined;
  return !proxied && isLoopbackPeer(req.socket, peer);
}

// A connection's peer does not change: parsed once per connection, not on every request it
// carries (parsing it took 4.5 % of the server's CPU under catalogue reads, issue 40.2).
const loopbackPeers = new WeakMap<object, boolean>();

function isLoopbackPeer(socket: object, peer: string): boolean {
  let loopback = loopbackPeers.get(socket);
  if (loopback === undefined) {
    loopback = ipaddr.isValid(peer) && ipaddr.process(peer).range() === "loopback";
    loopbackPeers.set(socket, loopback);
  }
  return loopback;
}

/** What our server decided for this request; false without our server in front (`next start`: the header is missing). */
export function arrivedSecurely(headers: { get(name: string): string | null }): boolean {
  return headers.get(CLIENT_SECURE_HEADER) === "1";
}
