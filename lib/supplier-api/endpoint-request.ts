import type http from "node:http";
import { readBodyLimited, readNodeBodyLimited } from "./read-body";

/**
 * A request as the endpoint pipeline (define-endpoint.ts) reads it: from
 * Next's Request, or straight from our HTTP server's socket
 * (lib/ops/direct-dispatch.ts, decision 0023).
 */
export interface EndpointRequest {
  method: string;
  /** Path and query as the client sent them, in the URL parser's normal form (the path is what it signed). */
  target: string;
  headers: { get(name: string): string | null };
  /**
   * The Accept-Encoding a kept gzip may be sent under (decision 0025): the
   * client's on our own socket; null through Next, whose sendResponse drops
   * a route's Content-Encoding (and compresses by itself).
   */
  acceptEncoding: string | null;
  /** The raw body, refused above 1 MiB (D30). */
  readBody(): Promise<Buffer>;
}

export function webRequest(req: Request): EndpointRequest {
  const url = new URL(req.url);
  return { method: req.method, target: url.pathname + url.search, headers: req.headers, acceptEncoding: null, readBody: () => readBodyLimited(req) };
}

/** The socket's headers (repeated values joined by ", ", as Headers.get joins them) and body. */
export function nodeRequest(req: http.IncomingMessage, target: string): EndpointRequest {
  const get = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  return {
    method: req.method ?? "GET",
    target,
    headers: { get },
    acceptEncoding: get("accept-encoding"),
    readBody: () => readNodeBodyLimited(req),
  };
}
