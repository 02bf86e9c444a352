import { resolvingAgent } from "../net/resolving-agent";
import { BodyTooLargeError, MAX_UPSTREAM_BODY_BYTES, readCappedText } from "./read-capped-body";
import { UpstreamError } from "./upstream-error";

// What every upstream client (ours, upstream-client.ts; Dujiao-Next's,
// dujiao-next-transport.ts) does with one request: a timeout, no redirect
// followed (issue 8.3: it could lead anywhere, past the address checks), the
// host name resolved off the thread pool (issue 22.3), the body capped, and
// every failure turned into an UpstreamError in our own words.

export interface SendInit {
  signal: AbortSignal;
  redirect: "manual";
  dispatcher: object;
}

/** A Node network error code ("ECONNREFUSED"), or null for anything that does not look like one. */
function networkCode(code: unknown): string | null {
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : null;
}

/** Sends with `send` and reads the answer: its Response and its body parsed as JSON (undefined when it is not JSON). */
export async function sendAndRead(
  send: (init: SendInit) => Promise<Response>,
  timeoutMs: number,
): Promise<{ res: Response; json: unknown }> {
  let res: Response;
  let text: string;
  try {
    res = await send({ signal: AbortSignal.timeout(timeoutMs), redirect: "manual", dispatcher: resolvingAgent() });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      throw new UpstreamError("http", `HTTP ${res.status}: the upstream redirected; redirects are not followed`, res.status);
    }
    text = await readCappedText(res, MAX_UPSTREAM_BODY_BYTES);
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    if (err instanceof BodyTooLargeError)
      throw new UpstreamError("invalid", `answer larger than ${MAX_UPSTREAM_BODY_BYTES} bytes; not read`);
    const e = err as { name?: string; cause?: { code?: string } };
    const why =
      e?.name === "TimeoutError" || e?.name === "AbortError"
        ? `no answer within ${timeoutMs} ms`
        : `connection failed: ${networkCode(e?.cause?.code) ?? e?.name ?? "error"}`;
    throw new UpstreamError("network", why);
  }
  try {
    return { res, json: JSON.parse(text) as unknown };
  } catch {
    return { res, json: undefined };
  }
}

/** Every product entry of a paged listing, unchecked, bounded by `maxPages`. */
export async function allPages(
  productsPage: (page: number) => Promise<{ items: unknown[]; total: number; page_size: number }>,
  maxPages: number,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const p = await productsPage(page);
    out.push(...p.items);
    if (p.items.length === 0 || page * p.page_size >= p.total) return out;
  }
  throw new UpstreamError("invalid", `more than ${maxPages} pages of products`);
}
