import type http from "node:http";
import type { RouteHandler } from "../supplier-api/define-endpoint";
import { log } from "../log";

// Issue 13: catalogue reads are most of a supplier's traffic, and on this
// 2-core machine Next's router costs about as much as answering them
// (decision 0023: a trivial Next route tops out near 1,200 requests/s, the
// products page near 425 through Next and 850 dispatched here). So our HTTP
// server hands GET products and GET products/{id}, under the four prefixes,
// straight to those route files' GET exports — the same functions Next
// calls, registered by instrumentation.ts from the same bundle — skipping
// Next's routing, rewrites and tracing. A request this could not pass on
// unchanged (any other method or path, a body, an id that needs decoding)
// goes to Next as before.

const CATALOG_READ = /^\/(?:api\/)?v1\/(upstream|provider)\/products(?:\/([A-Za-z0-9_-]{1,64}))?$/;

export interface DirectRoutes {
  /** GET of app/api/v1/[profile]/products/route.ts */
  products: RouteHandler;
  /** GET of app/api/v1/[profile]/products/[id]/route.ts */
  product: RouteHandler;
}

// On globalThis: registered by Next's bundle (instrumentation.ts), read by the server (tsx).
const g = globalThis as unknown as { __cardkeyDirectRoutes?: DirectRoutes };

export function registerDirectRoutes(routes: DirectRoutes): void {
  g.__cardkeyDirectRoutes = routes;
}

/** Answers a catalogue read without Next and returns true, or returns false to leave the request to Next. */
export function dispatchDirect(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const routes = g.__cardkeyDirectRoutes;
  if (!routes || req.method !== "GET" || hasBody(req)) return false;
  const target = req.url ?? "/";
  const query = target.indexOf("?");
  const match = CATALOG_READ.exec(query < 0 ? target : target.slice(0, query));
  if (!match) return false;
  const [, profile, id] = match;
  let request: Request;
  try {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    // Handlers read only the path and query of req.url (the path the client signed).
    request = new Request(`http://localhost${target}`, { method: "GET", headers });
  } catch {
    return false; // a header or target undici refuses: Next answers it as before
  }
  const handler = id ? routes.product : routes.products;
  handler(request, { params: Promise.resolve(id ? { profile, id } : { profile }) })
    .then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      headers["content-length"] = String(body.length);
      res.writeHead(response.status, headers).end(body);
    })
    .catch((err: unknown) => {
      // defineEndpoint answers every error itself; this guards the socket only.
      log.error({ err: (err as Error).message }, "direct catalogue dispatch failed");
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  return true;
}

function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}
