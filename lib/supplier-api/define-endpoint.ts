import crypto from "node:crypto";
import { z } from "zod";
import { clientIp } from "../net/client-address";
import { AppError, appError } from "../errors";
import { observeApiRequest } from "../metrics/registry";
import { profileFromSegment, type Profile, type WireDialect } from "../protocol/profiles";
import { cachedSettingsNow } from "../settings/get-cached-settings";
import { after, isPromise, type Maybe } from "../maybe";
import { authenticate, DUJIAO_AUTH, SVC_AUTH, type AuthenticatedCredential } from "./authenticate";
import { consumeRateLimit } from "./rate-limit";
import { refuseDeclaredOversize, type EndpointRequest } from "./endpoint-request";
import { recordSignedRequest } from "./replay";
import { touchCredential } from "./touch-credential";
import { errorAnswer, finish, jsonAnswer, prefersGzip, type Answer, type JsonText } from "./responses";
import { parseIdParam, queryValidator, readJsonBody, validate } from "./validate-input";

export { parseIdParam, validate };

/**
 * THE HTTP EDGE OF THE SUPPLIER API: one pipeline for every endpoint of the
 * table (lib/protocol/endpoints.ts), served by the router (./router.ts).
 *
 * ```ts
 * // lib/supplier-api/endpoints/orders.ts
 * export const createOrderEndpoint = defineEndpoint({
 *   ...ENDPOINTS.createOrder,                    // name, body/query schemas per profile, from the table
 *   allowReplay: async (ctx) => (await matchStoredOrder(createArgs(ctx))) !== null, // D8 exception, optional
 *   handler: async (ctx) => orderCreatedWire(ctx.profile, (await createOrder(createArgs(ctx))).order),
 * });
 * // its name binds it to the table entry `createOrder` (lib/supplier-api/endpoints.ts)
 * ```
 *
 * Every request passes these steps, in the order of D7:
 *  1. request id (X-Request-Id on every response, also in the log line, D1);
 *     the profile segment must be `upstream` or `provider`, else 404 not_found;
 *  2. body limit 1 MiB (D30): a declared Content-Length over it → 413 before anything else;
 *  3. authentication (section 5, D6, D7, D9; decision 0028): an address past its
 *     failed authentications → 429; headers, timestamp ±60 s, key and user active
 *     → 401 and the connection closed, before the body is waited for; then the
 *     body (over 1 MiB → 413, not there in 15 s → 408) and the HMAC over the path
 *     the client requested (req.url keeps /v1/... after the rewrite) → 401;
 *  4. replay protection, Profile P only (D8): a query string on anything but
 *     GET → 400 bad_request (decision 0010); (key, timestamp, signature) stored
 *     in ReplayRecord; seen within 120 s → 409 replay_detected. If the endpoint
 *     declares `allowReplay`, a replayed request is instead parsed and
 *     validated (failures still answer 409 replay_detected) and handed to
 *     `allowReplay(ctx)`; when it resolves true the handler runs with
 *     `ctx.replayed === true` and must answer read-only;
 *  5. rate limits (D31): per key in both profiles, per IP in P → 429 + Retry-After;
 *  6. body (only when `body` is declared): a JSON object; P strict (D17:
 *     unparseable or duplicate top-level key → invalid_json, non-object →
 *     bad_request); then the profile's zod schema → 400 bad_request naming the
 *     field, never its value. Query parameters likewise with `query`;
 *  7. handler; its result is the success body (or jsonText() of one already serialized,
 *     or a JsonStream written as it is made: a large order's keys, issue 40.3).
 * Errors: an AppError becomes the D1 body with its status and headers; any
 * other error becomes 500 internal_error, logged with the request id only.
 * One log line per request: request id, profile, endpoint, status, duration,
 * credential id (never bodies, headers, secrets, signatures or form values).
 */
export interface EndpointDefinition<BU, BP, QU, QP> {
  /** Log name, e.g. "orders.create". */
  name: string;
  /**
   * When set, the raw body must be a JSON object valid for the profile's schema.
   * Omit it (or the profile's schema, as cancel does for U, D23) to ignore the body.
   */
  body?: { U?: z.ZodType<BU>; P?: z.ZodType<BP>; allowEmpty?: boolean };
  /** When set, Object.fromEntries(searchParams) is validated by the profile's schema. */
  query?: { U: z.ZodType<QU>; P: z.ZodType<QP> };
  /** D8 exception hook; see step 4 above. Runs after validation; never for Profile U. */
  allowReplay?: (ctx: EndpointContext<BU, BP, QU, QP>) => Promise<boolean>;
  /** May answer at once (issue 40.4: a cached read is not made `async`). */
  handler: (ctx: EndpointContext<BU, BP, QU, QP>) => Maybe<object | JsonText>;
}

/**
 * What a handler gets. Discriminated on `profile`: after `if (ctx.profile === "P")`
 * `ctx.body` has the P schema's type.
 */
export type EndpointContext<BU = unknown, BP = unknown, QU = unknown, QP = unknown> =
  (EndpointContextBase & { profile: "U"; body: BU; query: QU }) | (EndpointContextBase & { profile: "P"; body: BP; query: QP });

export interface EndpointContextBase {
  profile: Profile;
  /** The prefix the client used, one of the four (for logs or links). */
  prefix: string;
  /** The protocol the request is signed in (decision 0090): Dujiao-Next's endpoints answer in its shapes. */
  dialect: WireDialect;
  requestId: string;
  credential: AuthenticatedCredential;
  /** Validated body (undefined when the endpoint declares no `body`). */
  body: unknown;
  /** Validated query (undefined when the endpoint declares no `query`). */
  query: unknown;
  /** Path parameters other than `profile`, e.g. { id: "12" }; validate with parseIdParam. */
  params: Record<string, string>;
  /** The exact request body as received (UTF-8 text). Never log it. */
  rawBody: string;
  /** True only when a replayed P request was let through by `allowReplay`. */
  replayed: boolean;
  /** The client's Accept-Encoding prefers gzip (a cached page's gzip is worth waiting for only then). */
  prefersGzip: boolean;
}

/** Where the router found the endpoint: the profile segment, the prefix the client used, the path parameters. */
export interface RouteMatch {
  segment: string;
  prefix: string;
  params: Record<string, string>;
  /** Which table answered: ours, or Dujiao-Next's (its headers select it, decision 0090). */
  dialect: WireDialect;
}

/** An endpoint's pipeline, not tied to a transport: the router's two callers write its Answer. */
export interface Endpoint {
  name: string;
  /** The Answer at once when every step had its value (issue 40.4), else a promise of it. */
  serve(req: EndpointRequest, route: RouteMatch): Maybe<Answer>;
}

export function defineEndpoint<BU = undefined, BP = undefined, QU = undefined, QP = undefined>(
  def: EndpointDefinition<BU, BP, QU, QP>,
): Endpoint {
  return { name: def.name, serve: serveEndpoint(def) };
}

function serveEndpoint<BU, BP, QU, QP>(def: EndpointDefinition<BU, BP, QU, QP>): Endpoint["serve"] {
  const validQuery = def.query ? queryValidator(def.query) : undefined;
  // Issue 40.4: no `async` here. Each step returns its value at once when it has it (lib/maybe.ts), so a read
  // whose key, settings, allowance and catalogue are at hand is answered in the turn its request arrived.
  return (req, route) => {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    const seen: Seen = {};
    const done = (answer: Answer): Answer => {
      observeApiRequest(def.name, seen.profile ?? null, answer.status, performance.now() - started);
      return finish(answer, requestId, {
        profile: seen.profile ?? null,
        endpoint: def.name,
        method: req.method,
        started,
        credentialId: seen.credentialId ?? null,
      });
    };
    const failed = (err: unknown) => done(errorAnswer(err, requestId));
    try {
      const q = req.target.indexOf("?");
      const pathname = q < 0 ? req.target : req.target.slice(0, q);
      const search = q < 0 || q === req.target.length - 1 ? "" : req.target.slice(q);
      const answer = after(admit(def, req, route, { requestId, pathname, search }, seen), (base) =>
        respond(def, validQuery, req, base, search),
      );
      return isPromise(answer) ? answer.then(done, failed) : done(answer);
    } catch (err) {
      return failed(err);
    }
  };
}

/** What the log line and metrics learn as the steps pass. */
interface Seen {
  profile?: Profile;
  credentialId?: number;
}

/** Steps 1-5: the profile, the declared size, authentication, replay protection and rate limits; the context they admit. */
function admit<BU, BP, QU, QP>(
  def: EndpointDefinition<BU, BP, QU, QP>,
  req: EndpointRequest,
  route: RouteMatch,
  target: { requestId: string; pathname: string; search: string },
  seen: Seen,
): Maybe<EndpointContextBase> {
  const profile = profileFromSegment(route.segment);
  if (!profile) throw appError("not_found", "no such endpoint");
  seen.profile = profile;
  // D7, issue 22.2: a declared oversize body first; the body is read only once the headers and key passed.
  refuseDeclaredOversize(req.headers.get("content-length"));
  const address = clientIp(req.headers);
  const scheme = route.dialect === "dujiao_next" ? DUJIAO_AUTH : SVC_AUTH;
  return after(authenticate(req, target.pathname, req.readBody, address, scheme), (auth) => {
    const credentialId = auth.credential.id;
    seen.credentialId = credentialId;
    touchCredential(credentialId);
    // Issue 22.6, decision 0010: an unsigned query makes a new replay identity: in P only a GET (a read) may carry one.
    if (profile === "P" && target.search && req.method !== "GET" && req.method !== "HEAD") {
      throw appError("bad_request", "Profile P accepts a query string on GET only: it is not signed");
    }
    const fresh = profile === "P" ? recordSignedRequest(credentialId, auth.timestamp, auth.signature, target.search) : true;
    return after(fresh, (isFresh) => {
      if (!isFresh && !def.allowReplay) throw replayDetected();
      return after(limitRate(profile, credentialId, address), () => ({
        profile,
        prefix: route.prefix,
        dialect: route.dialect,
        requestId: target.requestId,
        credential: auth.credential,
        body: undefined,
        query: undefined,
        params: route.params,
        rawBody: auth.body.toString("utf8"),
        replayed: !isFresh,
        prefersGzip: prefersGzip(req.acceptEncoding),
      }));
    });
  });
}

/** Step 5, D31: per key in both profiles, per address in P (from the socket unless a proxy is trusted, issue 8.5). */
function limitRate(profile: Profile, credentialId: number, address: string | null): Maybe<void> {
  return after(cachedSettingsNow(), (settings) =>
    after(consumeRateLimit("key", String(credentialId), settings.rateLimitPerKey), () =>
      profile === "P" ? consumeRateLimit("ip", address ?? "unknown", settings.rateLimitPerIp) : undefined,
    ),
  );
}

/** Steps 6-7: the body and query validated, a replay let through or refused, the handler's answer. */
function respond<BU, BP, QU, QP>(
  def: EndpointDefinition<BU, BP, QU, QP>,
  validQuery: ReturnType<typeof queryValidator> | undefined,
  req: EndpointRequest,
  base: EndpointContextBase,
  search: string,
): Maybe<Answer> {
  const ctx = base as EndpointContext<BU, BP, QU, QP>;
  // A replayed request is answered as a replay, whatever else is wrong with it (D7 order).
  const asReplay = (err: unknown): never => {
    throw base.replayed && err instanceof AppError ? replayDetected() : err;
  };
  let letThrough: Maybe<boolean> = true;
  try {
    const bodySchema: z.ZodType<unknown> | undefined = def.body?.[base.profile];
    if (bodySchema) base.body = validate(bodySchema, readJsonBody(base.rawBody, base.profile, def.body?.allowEmpty ?? false));
    if (validQuery) base.query = validQuery(base.profile, search);
    if (base.replayed) letThrough = def.allowReplay!(ctx).catch(asReplay);
  } catch (err) {
    asReplay(err);
  }
  return after(letThrough, (ok) => {
    if (!ok) throw replayDetected();
    return after(def.handler(ctx), (body) => jsonAnswer(body, 200, req.acceptEncoding));
  });
}

const replayDetected = () => appError("replay_detected", "this signed request was already processed");
