import type http from "node:http";
import type { RouteHandler } from "../supplier-api/define-endpoint";
import { log } from "../log";

// Issue 13: catalogue reads are most of a supplier's traffic, and on this
// 2-core machine Next's router costs about as much as answering them
// (decision 0023: a trivial Next route tops out near 1,200 requests/s, the
// products page near 425 through Next and 850 dispatched here). So our HTTP
// server hands GET products and GET products/{id}, under the four prefixes,
// straight to the pipeline (`serve`) behind those route files' GET exports —
// the same functions Next calls, registered by instrumentation.ts from the
// same bundle — skipping Next's routing, rewrites and tracing, and the Web
// Request, Response and streams around them. A request this could not pass on
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

const NO_BODY = Promise.resolve(Buffer.alloc(0));

/** Answers a catalogue read without Next and returns true, or returns false to leave the request to Next. */
export function dispatchDirect(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const routes = g.__cardkeyDirectRoutes;
  if (!routes || req.method !== "GET" || hasBody(req)) return false;
  const target = req.url ?? "/";
  const query = target.indexOf("?");
  const match = CATALOG_READ.exec(query < 0 ? target : target.slice(0, query));
  if (!match) return false;
  const [, profile, id] = match;
  const serve = (id ? routes.product : routes.products).serve;
  let url: URL;
  try {
    // The path and query as Next would pass them on (the URL parser's normal form).
    url = new URL(target, "http://localhost");
  } catch {
    return false; // a target the URL parser refuses: Next answers it as before
  }
  if (!serve) return false;
  // No Request, Response or web stream: the endpoint's pipeline reads the
  // socket's headers and its answer goes to the socket as it is.
  const headers = { get: (name: string) => headerValue(req, name) };
  serve({ method: "GET", target: url.pathname + url.search, headers, readBody: () => NO_BODY }, id ? { profile, id } : { profile })
    .then((answer) => {
      res.writeHead(answer.status, { ...answer.headers, "Content-Length": String(answer.body.length) }).end(answer.body);
    })
    .catch((err: unknown) => {
      // The pipeline answers every error itself; this guards the socket only.
      log.error({ err: (err as Error).message }, "direct catalogue dispatch failed");
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  return true;
}

/** A request header as Headers.get gives it: repeated values joined with ", ", null when absent. */
function headerValue(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
}

function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}
