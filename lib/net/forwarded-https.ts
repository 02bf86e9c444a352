import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import type { TrustProxy } from "../config/trusted-proxies";
import { clientIp } from "./client-address";

// Issue 37.2, decision 0091: whether a request reached us over HTTPS. Our
// server speaks plain HTTP; TLS ends at a proxy in front, whose
// X-Forwarded-Proto counts only when the socket's peer is one of
// TRUSTED_PROXIES (as its X-Forwarded-For, lib/net/client-address.ts). Route
// handlers cannot see the socket, so our server writes the answer into a
// header (any copy a client sent is replaced), as it does the client address.

export const CLIENT_HTTPS_HEADER = "x-client-https";

export function setForwardedHttps(req: IncomingMessage, trust: TrustProxy): void {
  const peer = req.socket.remoteAddress;
  const proto = req.headers["x-forwarded-proto"];
  const last = (Array.isArray(proto) ? proto.join(",") : (proto ?? "")).split(",").pop()!.trim().toLowerCase();
  const https = (req.socket as { encrypted?: boolean }).encrypted === true || (peer !== undefined && trust(peer, 0) && last === "https");
  const value = https ? "1" : "0";
  const sent = req.headers[CLIENT_HTTPS_HEADER] !== undefined;
  req.headers[CLIENT_HTTPS_HEADER] = value;
  if (!sent) {
    req.rawHeaders.push(CLIENT_HTTPS_HEADER, value); // nearly every request: nothing to drop
    return;
  }
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== CLIENT_HTTPS_HEADER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  raw.push(CLIENT_HTTPS_HEADER, value);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
}

/**
 * A request a protocol that sends its key in the clear may be served on:
 * HTTPS as above, or straight from this machine's loopback with no proxy
 * header at all (an operator's own test, our tests). A request that came
 * through a local proxy nobody declared trusted carries X-Forwarded-For or
 * X-Forwarded-Proto, so it is not taken for a local one. Without our server
 * in front (`next start`) the headers are missing and nothing qualifies.
 */
export function arrivedSecurely(headers: { get(name: string): string | null }): boolean {
  if (headers.get(CLIENT_HTTPS_HEADER) === "1") return true;
  const ip = clientIp(headers);
  if (ip === null || headers.get(CLIENT_HTTPS_HEADER) === null) return false;
  if (headers.get("x-forwarded-for") !== null || headers.get("x-forwarded-proto") !== null || headers.get("forwarded") !== null)
    return false;
  return ipaddr.isValid(ip) && ipaddr.process(ip).range() === "loopback";
}
