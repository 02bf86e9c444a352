// Signed HTTP for the benchmark scripts (bench-catalog.ts, bench-orders.ts).
// Signing itself lives in lib/protocol (shared with the server and
// lib/upstream); this adds a keep-alive node:http client, which costs the
// benchmark client far less CPU than fetch() on a 2-core machine where client
// and server share the cores.
import http from "node:http";
import zlib from "node:zlib";
import { signedHeaders, type SupplierCredentials } from "../../lib/protocol/client";

export { signedFetch, signedHeaders, supplierClient, type SupplierCredentials } from "../../lib/protocol/client";

export interface HttpResult {
  status: number;
  /** Decoded when it came gzipped. */
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

export function makeAgent(concurrency: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
}

/** One request over a keep-alive agent; `headers` are sent as given; a gzipped body is decoded. */
export function httpRequest(agent: http.Agent, url: URL, method: string, headers: Record<string, string>, body = ""): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const payload = body ? Buffer.from(body, "utf8") : undefined;
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port || 80,
        path: url.pathname + url.search,
        method,
        headers: payload ? { ...headers, "Content-Length": String(payload.length) } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res
          .on("data", (c: Buffer) => chunks.push(c))
          .on("end", () => {
            const wire = Buffer.concat(chunks);
            const done = (body: Buffer) => resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
            try {
              // In one synchronous call: on the thread pool, in 16 KB chunks, it costs the shared cores about three times the CPU.
              done(res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(wire) : wire);
            } catch (err) {
              reject(err);
            }
          });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/**
 * A signed request (fresh timestamp and signature each call) over a
 * keep-alive agent, accepting gzip as a downstream's fetch() or curl
 * --compressed does.
 */
export function signedHttpRequest(
  agent: http.Agent,
  creds: SupplierCredentials,
  url: string | URL,
  method = "GET",
  body = "",
): Promise<HttpResult> {
  const u = typeof url === "string" ? new URL(url) : url;
  return httpRequest(agent, u, method, { ...signedHeaders(creds, method, u.pathname, body), "Accept-Encoding": "gzip" }, body);
}
