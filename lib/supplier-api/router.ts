import { Readable } from "node:stream";
import { appError, type AppError } from "../errors";
import { log } from "../log";
import { isPromise, type Maybe } from "../maybe";
import { isDecodablePath } from "../net/decodable-path";
import { DUJIAO_ENDPOINTS, DUJIAO_HEADER_API_KEY, DUJIAO_PREFIX, type DujiaoEndpointKey } from "../protocol/dujiao-next";
import { ENDPOINT_LIST, type EndpointKey } from "../protocol/endpoints";
import { HEADER_API_KEY } from "../protocol/headers";
import { ALL_PREFIXES, type Profile, type WireDialect } from "../protocol/profiles";
import type { Endpoint, RouteMatch } from "./define-endpoint";
import { endpointRequest, type EndpointRequest } from "./endpoint-request";
import { DUJIAO_HANDLERS, HANDLERS } from "./endpoints";
import { setPublishedRouter, type NodeRouter } from "./published-router";
import { refusal, toResponse, writeAnswer, type Answer } from "./responses";

/**
 * THE ROUTER of the supplier API (decision 0036), built once from the
 * endpoint table (lib/protocol/endpoints.ts) and its handlers
 * (./endpoints.ts). Every request under the four prefixes gets a D1 answer
 * from it (issue 8.1): its endpoint's pipeline; 404 not_found for a path the
 * table does not have, or has for the other profile only; 405
 * method_not_allowed with `Allow` for a method it does not have; HEAD served
 * by GET; 400 bad_request for a path with broken percent-encoding.
 *
 * Two callers: our HTTP server (`npm start`, lib/ops/http-server.ts) through
 * `serveNode`, which reads the socket and writes the Answer's bytes as they
 * are (the fast path, decisions 0023, 0025); and Next's catch-all route
 * (app/api/v1/[profile]/[[...rest]]/route.ts, for `next start` and
 * development) through `serveWeb`. Both answer alike (router.test.ts).
 */
export interface SupplierRouter extends NodeRouter {
  serveWeb: (req: Request) => Promise<Response>; // a property: Next exports it unbound
}

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** One path of the table: its endpoints by method. */
interface Resource {
  methods: Map<string, Endpoint>;
  /** The `Allow` header of its 405 (HEAD with GET), in HTTP_METHODS order. */
  allow: string;
  profiles?: readonly Profile[];
}

/** A path segment: literal children first, then one parameter (the table needs no backtracking). */
interface PathNode {
  literal: Map<string, PathNode>;
  param?: { name: string; node: PathNode };
  resource?: Resource;
}

type Routed = { endpoint: Endpoint; match: RouteMatch } | { refuse: AppError; profile: Profile | null };

const newNode = (): PathNode => ({ literal: new Map() });

/** The prefixes with their profile and segment (its last: "provider" → P). */
const PREFIXES = ALL_PREFIXES.map(({ profile, prefix }) => ({ profile, prefix, segment: prefix.slice(prefix.lastIndexOf("/") + 1) }));

/** The prefix a pathname is under (the prefix itself or "{prefix}/…"), or undefined. */
function prefixOf(pathname: string) {
  for (const p of PREFIXES) {
    if (pathname.startsWith(p.prefix) && (pathname.length === p.prefix.length || pathname.charCodeAt(p.prefix.length) === 47)) return p;
  }
  return undefined;
}

interface TableEntry {
  key: string;
  name: string;
  method: string;
  path: string;
  profiles?: readonly Profile[];
}

/** Compiles a table into a tree of path segments. Throws when a handler was made from another entry. */
function compile(entries: readonly TableEntry[], handlers: Record<string, Endpoint>): PathNode {
  const root = newNode();
  for (const entry of entries) {
    const endpoint = handlers[entry.key];
    if (endpoint.name !== entry.name) throw new Error(`endpoint table: ${entry.key}'s handler is "${endpoint.name}", not "${entry.name}"`);
    let node = root;
    for (const segment of entry.path.split("/").slice(1)) {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param) node = (node.param ??= { name: param, node: newNode() }).node;
      else node = node.literal.get(segment) ?? node.literal.set(segment, newNode()).get(segment)!;
    }
    const resource = (node.resource ??= { methods: new Map(), allow: "", profiles: entry.profiles });
    resource.methods.set(entry.method, endpoint);
    if (String(entry.profiles) !== String(resource.profiles))
      throw new Error(`endpoint table: ${entry.path} has different profiles per method`);
    resource.allow = HTTP_METHODS.filter((m) => resource.methods.has(m === "HEAD" ? "GET" : m)).join(", ");
  }
  return root;
}

const notFound = (profile: Profile | null): Routed => ({ refuse: appError("not_found", "no such endpoint"), profile });

/** The two tables' trees: ours, and Dujiao-Next's under its one prefix (decision 0090). */
interface Trees {
  svc: PathNode;
  dujiao: PathNode;
}

/**
 * Decision 0090: a request under Profile U's primary prefix that carries Dujiao-Next's key header and not ours
 * speaks Dujiao-Next's docking protocol (their client signs that path whatever its base URL).
 * Anything else is ours, exactly as before.
 */
function dialectOf(prefix: string, header: (name: string) => string | null): WireDialect {
  return prefix === DUJIAO_PREFIX && header(DUJIAO_HEADER_API_KEY) !== null && header(HEADER_API_KEY) === null ? "dujiao_next" : "svc";
}

/** What answers `method` on `pathname` (its URL-parser normal form), or null when the path is not under the four prefixes. */
function routeIn(trees: Trees, method: string, pathname: string, header: (name: string) => string | null): Routed | null {
  const p = prefixOf(pathname);
  if (!p) return null;
  const dialect = dialectOf(p.prefix, header);
  const root = dialect === "dujiao_next" ? trees.dujiao : trees.svc;
  // Issues 8.1, 8.2: what Next's router answers by itself (a bare 500, a 308 redirect) gets a D1 answer here.
  if (!isDecodablePath(pathname)) {
    return { refuse: appError("bad_request", "the request path has malformed percent-encoding"), profile: p.profile };
  }
  const rest = pathname.slice(p.prefix.length);
  if (rest.length < 2 || rest.endsWith("/") || rest.includes("//")) return notFound(p.profile);
  let node = root;
  let params: Record<string, string> | undefined;
  for (let start = 1; start <= rest.length;) {
    const slash = rest.indexOf("/", start);
    const end = slash < 0 ? rest.length : slash;
    let segment = rest.slice(start, end);
    if (segment.includes("%")) segment = decodeURIComponent(segment); // as Next decodes its path segments
    const literal = node.literal.get(segment);
    if (literal) node = literal;
    else if (node.param) {
      (params ??= {})[node.param.name] = segment;
      node = node.param.node;
    } else return notFound(p.profile);
    start = end + 1;
  }
  const resource = node.resource;
  if (!resource || (resource.profiles && !resource.profiles.includes(p.profile))) return notFound(p.profile);
  const endpoint = resource.methods.get(method === "HEAD" ? "GET" : method);
  if (!endpoint) {
    return {
      refuse: appError("method_not_allowed", "this endpoint does not accept this method", { headers: { Allow: resource.allow } }),
      profile: p.profile,
    };
  }
  return { endpoint, match: { segment: p.segment, prefix: p.prefix, params: params ?? NO_PARAMS, dialect } };
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

/** The endpoint's Answer (at once when it has it, issue 40.4), or the router's refusal. Throws only on a defect. */
function answer(routed: Routed, req: EndpointRequest): Maybe<Answer> {
  return "endpoint" in routed ? routed.endpoint.serve(req, routed.match) : refusal(routed.refuse, req.method, routed.profile);
}

const DUJIAO_LIST = (Object.keys(DUJIAO_ENDPOINTS) as DujiaoEndpointKey[]).map((key) => ({ key, ...DUJIAO_ENDPOINTS[key] }));

export function createRouter(handlers: Record<EndpointKey, Endpoint> = HANDLERS): SupplierRouter {
  const trees: Trees = { svc: compile(ENDPOINT_LIST, handlers), dujiao: compile(DUJIAO_LIST, DUJIAO_HANDLERS) };
  return {
    serveNode(req, res) {
      const method = req.method ?? "GET";
      const raw = req.url ?? "/";
      // Only origin-form targets ("/…"); anything else, or a target the URL parser refuses, Next answers as before.
      const target = raw.charCodeAt(0) === 47 ? normalTarget(raw) : undefined;
      if (target === undefined) return false;
      const get = (name: string) => {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      };
      const query = target.indexOf("?");
      const routed = routeIn(trees, method, query < 0 ? target : target.slice(0, query), get);
      if (!routed) return false;
      // No Content-Length and no Transfer-Encoding: a request without a body (RFC 9112 6.3), as
      // nearly every GET is. Nothing to wait for; Node discards the empty stream when the answer ends.
      const length = req.headers["content-length"];
      const hasBody = (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
      const request = endpointRequest({
        method,
        target,
        headers: { get },
        acceptEncoding: get("accept-encoding"),
        body: () => (hasBody ? req : null),
      });
      // The pipeline answers every error itself; this guards the socket only.
      const failed = (err: unknown) => {
        log.error({ err: (err as Error).message }, "supplier api router failed");
        if (!res.headersSent) res.writeHead(500);
        res.end();
      };
      try {
        const a = answer(routed, request);
        if (isPromise(a)) a.then((done) => writeAnswer(res, done)).catch(failed);
        else writeAnswer(res, a);
      } catch (err) {
        failed(err);
      }
      return true;
    },

    async serveWeb(req) {
      const url = new URL(req.url);
      // Next sends here only paths under /api/v1/{segment}/: any other segment is not an endpoint either.
      const routed = routeIn(trees, req.method, url.pathname, (name) => req.headers.get(name)) ?? notFound(null);
      const request = endpointRequest({
        method: req.method,
        target: url.pathname + url.search,
        headers: req.headers,
        acceptEncoding: null,
        body: () => (req.body ? Readable.fromWeb(req.body as import("node:stream/web").ReadableStream) : null),
      });
      return toResponse(await answer(routed, request));
    },
  };
}

let router: SupplierRouter | undefined;

/** The router of this bundle, built on first use. */
export function supplierRouter(): SupplierRouter {
  return (router ??= createRouter());
}

/** Called once by instrumentation.ts: hands this bundle's router to our HTTP server (./published-router.ts). */
export function publishRouter(): void {
  setPublishedRouter(supplierRouter());
}

// A query of these characters only, after a path of these, is its own normal
// form (the URL parser neither decodes nor encodes any of them): such a target
// (nearly every one) is passed on without parsing a URL.
const PLAIN_TARGET = /^\/[A-Za-z0-9_/-]*(?:\?[A-Za-z0-9_.~=&%+,-]+)?$/;

/** The path and query as Next would pass them on (the URL parser's normal form), or undefined if it refuses them. */
export function normalTarget(target: string): string | undefined {
  if (PLAIN_TARGET.test(target)) return target;
  try {
    const url = new URL(target, "http://localhost");
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}
