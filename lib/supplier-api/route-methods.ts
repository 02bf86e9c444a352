import crypto from "node:crypto";
import { log } from "../log";
import { HEADER_REQUEST_ID } from "../protocol/headers";
import { profileFromSegment, type Profile } from "../protocol/profiles";
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
export function routeMethods(
  handlers: Partial<Record<"GET" | "POST" | "PUT" | "DELETE", RouteHandler>>,
  opts: { profiles?: readonly Profile[] } = {},
): Record<HttpMethod, RouteHandler> {
  const served: Partial<Record<HttpMethod, RouteHandler>> = { ...handlers };
  if (handlers.GET) served.HEAD = handlers.GET;
  const allow = HTTP_METHODS.filter((m) => served[m]).join(", ");
  const refuse = errorRoute("method_not_allowed", (profileKnown) =>
    profileKnown
      ? appError("method_not_allowed", "this endpoint does not accept this method", { headers: { Allow: allow } })
      : appError("not_found", "no such endpoint"),
  );
  const methods = Object.fromEntries(HTTP_METHODS.map((m) => [m, served[m] ?? refuse])) as Record<HttpMethod, RouteHandler>;
  return opts.profiles ? onlyFor(opts.profiles, methods) : methods;
}

/**
 * An endpoint of some profiles only (a Profile U extension, issue 12.2):
 * under the other profile's prefixes the path does not exist, so every
 * method answers 404 not_found as the catch-all route would, before anything
 * is read or authenticated.
 */
function onlyFor(profiles: readonly Profile[], methods: Record<HttpMethod, RouteHandler>): Record<HttpMethod, RouteHandler> {
  const notFound = notFoundMethods();
  const pick = (m: HttpMethod): RouteHandler => async (req, routeCtx) => {
    const profile = profileFromSegment(String((await routeCtx.params).profile));
    return (profile && profiles.includes(profile) ? methods[m] : notFound[m])(req, routeCtx);
  };
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, pick(m)])) as Record<HttpMethod, RouteHandler>;
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
