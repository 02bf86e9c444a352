import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP } from "./headers";
import { signRequest } from "./signing";

// Signed requests of section 5, raw Responses (the lower layer of ./client.ts).

export interface SupplierCredentials {
  apiKey: string;
  apiSecret: string;
}

export interface SignedRequestInit {
  method?: string;
  /** Exact body text; objects are JSON.stringify'd once and those bytes are signed and sent. */
  body?: string | object;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** fetch's redirect mode; our upstream client uses "manual" (issue 8.3). */
  redirect?: RequestRedirect;
  /** An undici dispatcher (our upstream client resolves host names off the thread pool, issue 22.3). */
  dispatcher?: object;
}

/** Headers for one request. `pathWithQuery` may carry a query string; only the path is signed. */
export function signedHeaders(
  creds: SupplierCredentials,
  method: string,
  pathWithQuery: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const path = pathWithQuery.split("?")[0];
  return {
    [HEADER_API_KEY]: creds.apiKey,
    [HEADER_TIMESTAMP]: String(timestamp),
    [HEADER_SIGNATURE]: signRequest({ method, path, timestamp, body, secret: creds.apiSecret }),
    "Content-Type": "application/json",
  };
}

/**
 * fetch() with section 5 headers. `url` is absolute, e.g.
 * `${base}${prefix}/products?page_size=100`; the signed PATH is the URL's path as sent.
 */
export function signedFetch(url: string, creds: SupplierCredentials, init: SignedRequestInit = {}): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  const body = init.body === undefined ? "" : typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  const u = new URL(url);
  const headers = { ...signedHeaders(creds, method, u.pathname, body, init.timestamp), ...init.headers };
  const request = {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : body,
    signal: init.signal,
    redirect: init.redirect,
  };
  // `dispatcher` is undici's extension of RequestInit, unknown to the DOM type.
  return fetch(u, init.dispatcher ? ({ ...request, dispatcher: init.dispatcher } as RequestInit) : request);
}

/** A client bound to one base URL, prefix and credential: `client.get("/products?page=2")`. */
export function supplierClient(baseUrl: string, prefix: string, creds: SupplierCredentials) {
  const root = baseUrl.replace(/\/+$/, "") + prefix;
  return {
    request: (path: string, init?: SignedRequestInit) => signedFetch(root + path, creds, init),
    get: (path: string, init?: Omit<SignedRequestInit, "method" | "body">) => signedFetch(root + path, creds, { ...init, method: "GET" }),
    post: (path: string, body: string | object = "", init?: Omit<SignedRequestInit, "method" | "body">) =>
      signedFetch(root + path, creds, { ...init, method: "POST", body }),
  };
}
