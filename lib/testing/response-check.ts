import { responseChecker, type ResponseChecker } from "../protocol/openapi/check-response";
import { DUJIAO_HEADER_API_KEY } from "../protocol/dujiao-next";
import { HEADER_API_KEY } from "../protocol/headers";
import { ALL_PREFIXES } from "../protocol/profiles";

// Issue 11.1: every supplier-API response the HTTP tests receive from one of
// our servers is checked against the OpenAPI document (its operation and
// status), so the document and the server cannot drift apart. startAppServer
// registers each server; both transports of the tests report here:
// rawRequest (lib/testing/test-client.ts) and fetch (wrapped below, which
// covers lib/protocol/client.ts). Responses from stubs and proxies are not ours
// and are not checked.

const ourOrigins = new Set<string>();
let checker: ResponseChecker | undefined;
/** Every check made in this process, for the test that proves the hook runs. */
export const responseCheckLog: { method: string; path: string; status: number; operationId: string | null }[] = [];

export class ResponseContractError extends Error {
  override name = "ResponseContractError";
}

export function registerCheckedServer(baseUrl: string): void {
  ourOrigins.add(new URL(baseUrl).origin);
  installFetchHook();
}

const underPrefix = (path: string) => ALL_PREFIXES.some(({ prefix }) => path === prefix || path.startsWith(prefix + "/"));

/** Throws ResponseContractError when a response of one of our servers does not match the document. */
export function checkTestResponse(url: string, method: string, status: number, contentType: string | null, bodyText: string): void {
  const u = new URL(url);
  if (!ourOrigins.has(u.origin) || !underPrefix(u.pathname) || ["HEAD", "OPTIONS"].includes(method.toUpperCase())) return;
  checker ??= responseChecker();
  const r = checker.check(method, u.pathname, status, contentType, bodyText);
  responseCheckLog.push({ method: method.toUpperCase(), path: u.pathname, status, operationId: r.operationId });
  if (r.problems.length) throw new ResponseContractError(`response does not match the OpenAPI document:\n  ${r.problems.join("\n  ")}`);
}

let installed = false;
function installFetchHook() {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await original(input, init);
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    // Decision 0090: a request in Dujiao-Next's dialect is answered in their protocol, not our document's;
    // the tests decode those answers as their client does (lib/testing/dujiao-next-buyer.ts).
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const theirs = headers.has(DUJIAO_HEADER_API_KEY) && !headers.has(HEADER_API_KEY);
    if (ourOrigins.has(new URL(url).origin) && !theirs) {
      checkTestResponse(url, method, res.status, res.headers.get("content-type"), await res.clone().text());
    }
    return res;
  };
}
