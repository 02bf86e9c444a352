import type http from "node:http";
import type { RouteHandler } from "../supplier-api/define-endpoint";
import { log } from "../log";

// Issue 13: on this 2-core machine Next's router costs about as much as
// answering a supplier API request (decision 0023: a trivial Next route tops
// out near 1,200 requests/s, the products page near 425 through Next and 850
// dispatched here). So our HTTP server hands the supplier API's requests,
// under the four prefixes, straight to the pipeline (`serveNode`) behind the
// route files' method exports — the same functions Next calls, registered by
// instrumentation.ts from the same bundle — skipping Next's routing,
// rewrites and tracing, and the Web Request, Response and streams around
// them. What has no `serveNode` (a 405, HEAD, OPTIONS, an endpoint of one
// profile only, an unknown path) and any path this could not pass on
// unchanged (an id that needs decoding) go to Next as before.

const SUPPLIER_PATH = /^\/(?:api\/)?v1\/(upstream|provider)\/([a-z-]{1,32})(?:\/([A-Za-z0-9_-]{1,64})(?:\/([a-z]{1,32}))?)?$/;
const DISPATCHED = new Set(["GET", "POST", "PUT", "DELETE"]);

/** Route files by their path under app/api/v1/[profile]/ ("orders/[id]/cancel"), each with its method exports. */
export type DirectRoutes = Record<string, Record<string, unknown>>;

// On globalThis: registered by Next's bundle (instrumentation.ts), read by the server (tsx).
// A Map: the path segments come from the client ("constructor" is a key of every object).
const g = globalThis as unknown as { __cardkeyDirectRoutes?: Map<string, Record<string, unknown>> };

export function registerDirectRoutes(routes: DirectRoutes): void {
  g.__cardkeyDirectRoutes = new Map(Object.entries(routes));
}

/** Answers a supplier API request without Next and returns true, or returns false to leave the request to Next. */
export function dispatchDirect(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const routes = g.__cardkeyDirectRoutes;
  const method = req.method ?? "";
  if (!routes || !DISPATCHED.has(method)) return false;
  const target = req.url ?? "/";
  const query = target.indexOf("?");
  const match = SUPPLIER_PATH.exec(query < 0 ? target : target.slice(0, query));
  if (!match) return false;
  const [, profile, resource, id, action] = match;
  const file = id === undefined ? resource : action === undefined ? `${resource}/[id]` : `${resource}/[id]/${action}`;
  const serve = (routes.get(file)?.[method] as RouteHandler | undefined)?.serveNode;
  if (!serve) return false;
  const normal = normalTarget(target, query);
  if (normal === undefined) return false; // a target the URL parser refuses: Next answers it as before
  // The pipeline reads the socket's headers and body; its answer goes to the socket as it is.
  serve(req, normal, id === undefined ? { profile } : { profile, id })
    .then((answer) => {
      res.writeHead(answer.status, { ...answer.headers, "Content-Length": String(answer.body.length) }).end(answer.body);
    })
    .catch((err: unknown) => {
      // The pipeline answers every error itself; this guards the socket only.
      log.error({ err: (err as Error).message }, "direct dispatch failed");
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  return true;
}

// A query of these characters only is its own normal form (the URL parser
// neither decodes nor encodes any of them), as SUPPLIER_PATH's paths are:
// such a target (nearly every one) is passed on without parsing a URL.
const PLAIN_QUERY = /^\?[A-Za-z0-9_.~=&%+,-]+$/;

/** The path and query as Next would pass them on (the URL parser's normal form), or undefined if it refuses them. */
export function normalTarget(target: string, query: number): string | undefined {
  if (query < 0 || PLAIN_QUERY.test(target.slice(query))) return target;
  try {
    const url = new URL(target, "http://localhost");
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}
