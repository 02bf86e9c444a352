import crypto from "node:crypto";
import { log } from "../log";
import { HEADER_REQUEST_ID } from "../protocol/headers";
import { profileFromSegment } from "../protocol/profiles";
import type { RouteHandler } from "./define-endpoint";
import { errorResponse } from "./responses";
import { appError } from "../errors";

// Issue 8.1: every request under the four prefixes gets a D1 answer. Next
// answers a method a route file does not export with an empty 405, and a path
// no route file matches with its HTML 404; so every route file exports every
// method through `routeMethods`, and the catch-all route
// (app/api/v1/[profile]/[[...rest]]) answers every other path.

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * All seven method exports of a route file: the declared handlers, HEAD
 * served by GET where there is one (as Next does by itself), and a D1 405
 * `method_not_allowed` with an `Allow` header for the rest.
 *
 * ```ts
 * export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: pingEndpoint });
 * ```
 */
export function routeMethods(handlers: Partial<Record<"GET" | "POST", RouteHandler>>): Record<HttpMethod, RouteHandler> {
  const served: Partial<Record<HttpMethod, RouteHandler>> = { ...handlers };
  if (handlers.GET) served.HEAD = handlers.GET;
  const allow = HTTP_METHODS.filter((m) => served[m]).join(", ");
  const refuse = errorRoute("method_not_allowed", (profileKnown) =>
    profileKnown
      ? appError("method_not_allowed", "this endpoint does not accept this method", { headers: { Allow: allow } })
      : appError("not_found", "no such endpoint"),
  );
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, served[m] ?? refuse])) as Record<HttpMethod, RouteHandler>;
}

/** Every method of the catch-all route: 404 not_found. */
export function notFoundMethods(): Record<HttpMethod, RouteHandler> {
  const route = errorRoute("not_found", () => appError("not_found", "no such endpoint"));
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, route])) as Record<HttpMethod, RouteHandler>;
}

/**
 * A handler that only refuses: request id and log line as in defineEndpoint,
 * nothing read, nothing authenticated (the answer says only what the public
 * specification already says: which paths and methods exist).
 */
function errorRoute(name: string, error: (profileKnown: boolean) => Error): RouteHandler {
  return async (req, routeCtx) => {
    const requestId = crypto.randomUUID();
    const { profile } = await routeCtx.params;
    const known = profileFromSegment(String(profile)) !== undefined;
    const res = errorResponse(error(known), requestId);
    res.headers.set(HEADER_REQUEST_ID, requestId);
    log.info({ requestId, profile: known ? profileFromSegment(String(profile)) : null, endpoint: name, method: req.method, status: res.status }, "supplier api request");
    return res;
  };
}
