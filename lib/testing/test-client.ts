import http from "node:http";
import zlib from "node:zlib";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP } from "../protocol/headers";
import { signRequest } from "../protocol/signing";
import { checkTestResponse } from "./response-check";

// A raw HTTP client for tests of the supplier API: unlike fetch it can send a
// body with GET, a Content-Length it does not keep, or a chunked body, and it
// lets a test sign something other than what it sends.

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, decoded when it came gzipped. */
  text: string;
  /** The body parsed as JSON, read as T (a test's declared answer shape; unknown when none is given). */
  json<T = unknown>(): T;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export interface RawRequest {
  method: string;
  /** Path with query string, e.g. "{prefix}/products?page=2". */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
  /** Bind the socket to this loopback address (127.0.0.2…) to act as another client host. */
  localAddress?: string;
}

export function rawRequest(baseUrl: string, r: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body, "utf8");
  const headers: Record<string, string> = { ...r.headers };
  // A request that lies about its length must not poison a shared keep-alive socket.
  const explicitLength = Object.keys(headers).some((h) => h.toLowerCase() === "content-length");
  if (body && !r.chunked && !Object.keys(headers).some((h) => h.toLowerCase() === "content-length"))
    headers["Content-Length"] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: r.method,
        path: r.path,
        headers,
        localAddress: r.localAddress,
        agent: r.chunked || (body && body.length > 65536) || explicitLength ? false : agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          // Asked for with Accept-Encoding: gzip (issue 13.4); a body that fails to decode fails the test.
          const text = (res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw).toString("utf8");
          try {
            // Issue 11.1: the response must match the OpenAPI document (our servers only).
            checkTestResponse(
              new URL(r.path, baseUrl).toString(),
              r.method,
              res.statusCode ?? 0,
              String(res.headers["content-type"] ?? ""),
              text,
            );
          } catch (err) {
            return reject(err);
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
        });
        res.on("error", reject);
      },
    );
    // The server may answer (413) and close before it read everything we send.
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE" && err.code !== "ECONNRESET") reject(err);
    });
    if (body && r.chunked) {
      for (let i = 0; i < body.length; i += 65536) req.write(body.subarray(i, i + 65536));
    } else if (body) {
      req.write(body);
    }
    req.end();
  });
}

export interface Creds {
  apiKey: string;
  apiSecret: string;
}

export interface SignedRawRequest {
  method: string;
  path: string;
  body?: string | Buffer;
  /** Defaults to now, or a later second when this key already sent this method and path this second. */
  timestamp?: number | string;
  /** Sign this path instead of the request path (e.g. another prefix's). */
  signPath?: string;
  /** Sign this body instead of the one sent. */
  signBody?: string;
  /** Post-process the signature (e.g. upper-case it). */
  mapSignature?: (s: string) => string;
  /** Replace or, with undefined, drop headers. */
  headers?: Record<string, string | undefined>;
  chunked?: boolean;
  localAddress?: string;
}

const lastTimestamp = new Map<string, number>();

/**
 * Profile P refuses a second request with the same (key, timestamp,
 * signature) (D8), and the signature covers neither the query string nor,
 * for GET, anything but method and path. So repeated test requests to one
 * path in the same second get distinct timestamps (later ones step into the
 * future, well inside the ±60 s window), just as a real P client must.
 */
function uniqueTimestamp(apiKey: string, method: string, path: string): number {
  const id = `${apiKey} ${method} ${path.split("?")[0]}`;
  const now = Math.floor(Date.now() / 1000);
  const ts = Math.max(now, (lastTimestamp.get(id) ?? 0) + 1);
  if (ts > now + 45) throw new Error(`test sends too many requests to ${path} with one key: D8 would refuse them`);
  lastTimestamp.set(id, ts);
  return ts;
}

export function signedRawRequest(baseUrl: string, creds: Creds, r: SignedRawRequest): Promise<RawResponse> {
  const timestamp = String(r.timestamp ?? uniqueTimestamp(creds.apiKey, r.method, r.path));
  const body = r.body ?? "";
  const signature = signRequest({
    method: r.method,
    path: (r.signPath ?? r.path).split("?")[0],
    timestamp,
    body: r.signBody ?? body,
    secret: creds.apiSecret,
  });
  const merged: Record<string, string | undefined> = {
    [HEADER_API_KEY]: creds.apiKey,
    [HEADER_TIMESTAMP]: timestamp,
    [HEADER_SIGNATURE]: r.mapSignature ? r.mapSignature(signature) : signature,
    "Content-Type": "application/json",
    ...r.headers,
  };
  const headers = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
  return rawRequest(baseUrl, { method: r.method, path: r.path, headers, body: r.body, chunked: r.chunked, localAddress: r.localAddress });
}
