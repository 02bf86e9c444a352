import type { z } from "zod";
import { schemaFor, type EndpointEntry } from "./endpoint-entry";
import { ENDPOINT_LIST, pathOf, type EndpointKey, type ENDPOINTS } from "./endpoints";
import { HEADER_REQUEST_ID } from "./headers";
import { PROFILE_PREFIXES, type Profile } from "./profiles";
import { signedFetch, type SupplierCredentials } from "./signed-fetch";
import { ErrorBodySchema } from "./wire-responses";

// The typed downstream client (issue 11.4), made from the endpoint table
// (./endpoints.ts; issue 34.2, decision 0081): one method per entry, named by
// its key, taking the entry's `{id}`, then its body (the profile's schema),
// then its query; it resolves to the entry's success body, parsed with the
// schema the OpenAPI document is generated from. Nothing here names an
// endpoint: a new entry is a new method. Workflows of several calls
// (waitForOrder, syncProducts) are in ./client-workflows.ts.
//
// Why lib/upstream/upstream-client.ts is a second client of this protocol:
// it talks to other suppliers, so it decodes leniently, keeps no text the
// other side chose, refuses redirects and caps bodies; this one is for a
// downstream of a server that keeps the contract, and says so when it does
// not (SupplierProtocolError). Decision 0081.

/** A D1 error answer: `status`, `code` (error_code), `message`, `requestId`. */
export class SupplierApiError extends Error {
  override name = "SupplierApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** A response that is not what the interface promises (wrong shape, not JSON, a success where none exists). */
export class SupplierProtocolError extends Error {
  override name = "SupplierProtocolError";
}

export interface SupplierClientOptions<P extends Profile> {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  profile: P;
  /** Defaults to the profile's primary prefix (PROFILE_PREFIXES, the /api/v1/… one). */
  prefix?: string;
  /** Entries marked `resend` (creating an order, opening a claim): attempts in all (default 5) and the back-off cap (default 30 s). */
  retry?: { attempts?: number; maxDelayMs?: number };
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

type Entries = typeof ENDPOINTS;
/** The entry's schema for profile P: its one schema, or its P one; undefined when P has none. */
type For<S, P extends Profile> = S extends z.ZodType ? S : P extends keyof S ? (S[P] extends z.ZodType ? S[P] : undefined) : undefined;
/** A query parameter's value as you pass it; a Date is sent as RFC 3339. */
export type QueryValue = string | number | boolean | Date;
type IdArg<E> = E extends { path: `${string}{id}${string}` } ? [id: number | string] : [];
type BodyArg<E, P extends Profile> = E extends { body: infer B }
  ? For<B, P> extends infer S extends z.ZodType
    ? B extends { allowEmpty: true }
      ? [body?: z.input<S>]
      : [body: z.input<S>]
    : []
  : [];
type QueryArg<E, P extends Profile> = E extends { query: infer Q }
  ? For<Q, P> extends infer S extends z.ZodType
    ? [query?: { [K in keyof z.output<S>]?: QueryValue }]
    : []
  : [];
/** The success body; `never` for an entry without one (cancel: the call always rejects, D23). */
type Result<E, P extends Profile> = E extends { success: infer S }
  ? For<S, P> extends infer O extends z.ZodType
    ? z.output<O>
    : never
  : never;

/** One method per entry of the table. */
export type EndpointMethods<P extends Profile> = {
  [K in EndpointKey]: (
    ...args: [...IdArg<Entries[K]>, ...BodyArg<Entries[K], P>, ...QueryArg<Entries[K], P>]
  ) => Promise<Result<Entries[K], P>>;
};

/** "?a=1&b=2" of the defined values ("" when none); a Date as RFC 3339. */
function queryString(q: Record<string, QueryValue | undefined>): string {
  const entries = Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, v instanceof Date ? v.toISOString() : String(v)]]));
  const qs = new URLSearchParams(entries).toString();
  return qs ? `?${qs}` : "";
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Exponential back-off from 500 ms, capped; Retry-After (seconds) wins when longer. */
export function retryDelayMs(attempt: number, maxDelayMs: number, retryAfterSeconds?: number): number {
  const backoff = Math.min(maxDelayMs, 500 * 2 ** attempt);
  return retryAfterSeconds === undefined ? backoff : Math.min(Math.max(backoff, retryAfterSeconds * 1000), 5 * 60_000);
}

/** A failure worth another attempt: no answer, a 5xx or a 429; never a D1 refusal or a broken answer. */
export const isRetryable = (err: unknown): boolean =>
  err instanceof SupplierApiError
    ? err.status >= 500 || err.status === 429
    : !(err instanceof SupplierProtocolError) && (err as Error)?.name !== "AbortError";

export function createSupplierClient<P extends Profile>(opts: SupplierClientOptions<P>) {
  const creds: SupplierCredentials = { apiKey: opts.apiKey, apiSecret: opts.apiSecret };
  const root = opts.baseUrl.replace(/\/+$/, "") + (opts.prefix ?? PROFILE_PREFIXES[opts.profile][0]);
  const profile: Profile = opts.profile;
  const sleep = opts.sleep ?? wait;
  const attempts = opts.retry?.attempts ?? 5;
  const maxDelayMs = opts.retry?.maxDelayMs ?? 30_000;
  let lastTs = 0;
  // Profile P refuses a repeated (key, timestamp, signature) (D8): every request gets its own second.
  const timestamp = () => (lastTs = Math.max(Math.floor(Date.now() / 1000), lastTs + 1));

  /** One request; the answer parsed with `success` (none: a 2xx breaks the protocol). */
  async function send(method: string, path: string, body: string | undefined, success: z.ZodType | undefined): Promise<unknown> {
    const res = await signedFetch(root + path, creds, { method, body, timestamp: timestamp() });
    const requestId = res.headers.get(HEADER_REQUEST_ID);
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw res.ok
        ? new SupplierProtocolError(`${method} ${path}: ${res.status} response is not JSON`)
        : new SupplierApiError(res.status, "http_error", text.slice(0, 200), requestId);
    }
    if (!res.ok) {
      const err = ErrorBodySchema.safeParse(json);
      const retryAfter = Number(res.headers.get("retry-after") ?? NaN);
      const e = err.success ? err.data : { error_code: "http_error", error_message: `status ${res.status}` };
      throw new SupplierApiError(
        res.status,
        e.error_code,
        e.error_message,
        requestId,
        Number.isFinite(retryAfter) ? retryAfter : undefined,
      );
    }
    if (!success) throw new SupplierProtocolError(`${method} ${path}: answered ${res.status}, which the protocol never does`);
    const parsed = success.safeParse(json);
    if (!parsed.success)
      throw new SupplierProtocolError(
        `${method} ${path}: unexpected response shape at ${parsed.error.issues[0]?.path.join(".") || "body"}`,
      );
    return parsed.data;
  }

  /**
   * The method of one entry. An entry marked `resend` is sent again after a
   * network error, a 5xx or a 429 (waiting Retry-After): the same body bytes,
   * freshly signed, so the server answers the original (D18). Never a new number.
   */
  function method(entry: EndpointEntry & { key: EndpointKey }) {
    const bodySchema = entry.body?.[profile];
    const success = entry.success && schemaFor(entry.success, profile);
    const hasId = entry.path.includes("{id}");
    return async (...args: unknown[]): Promise<unknown> => {
      // The arguments in the order of EndpointMethods: {id}, body, query, each only when the entry has it.
      const rest = [...args];
      const id = hasId ? (rest.shift() as number | string) : undefined;
      const body = bodySchema ? rest.shift() : undefined;
      const query = entry.query ? (rest.shift() as Record<string, QueryValue | undefined> | undefined) : undefined;
      const path = pathOf(entry.key, id) + queryString(query ?? {});
      const bytes = body === undefined ? undefined : JSON.stringify(body);
      for (let attempt = 0; ; attempt++) {
        try {
          return await send(entry.method, path, bytes, success);
        } catch (err) {
          if (!entry.resend || attempt + 1 >= attempts || !isRetryable(err)) throw err;
          await sleep(retryDelayMs(attempt, maxDelayMs, err instanceof SupplierApiError ? err.retryAfterSeconds : undefined));
        }
      }
    };
  }

  const methods = Object.fromEntries(ENDPOINT_LIST.map((e) => [e.key, method(e)])) as unknown as EndpointMethods<P>;
  return { profile: opts.profile, ...methods };
}

export type SupplierClient<P extends Profile = Profile> = ReturnType<typeof createSupplierClient<P>>;
