import type { Profile } from "./profiles";
import { isRetryable, SupplierProtocolError, type QueryValue, type SupplierClient } from "./typed-client";

// What a downstream does with several calls of the typed client
// (./typed-client.ts, whose methods are the endpoint table's): poll an order
// to its end, read the catalogue incrementally. They take the client, so its
// methods stay exactly the table's (issue 34.2).

type Read<P extends Profile> = Awaited<ReturnType<SupplierClient<P>["getOrder"]>>;
type Page<P extends Profile> = Awaited<ReturnType<SupplierClient<P>["listProducts"]>>;

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Poll an order until it is delivered or failed (section 4.6): 1 s, 2 s, 4 s
 * … capped at `maxDelayMs`; transient errors count as polls. Throws after
 * `timeoutMs` (default 10 minutes): the order may still complete.
 */
export async function waitForOrder<P extends Profile>(
  client: SupplierClient<P>,
  id: number,
  w: { timeoutMs?: number; initialDelayMs?: number; maxDelayMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<Read<P>> {
  const deadline = Date.now() + (w.timeoutMs ?? 600_000);
  const sleep = w.sleep ?? wait;
  let delay = w.initialDelayMs ?? 1000;
  for (;;) {
    try {
      const order = (await client.getOrder(id)) as Read<P>;
      if ((order as { status: string }).status !== "processing") return order;
    } catch (err) {
      if (!isRetryable(err)) throw err;
    }
    if (Date.now() + delay > deadline) throw new Error(`order ${id} still processing after the wait`);
    await sleep(delay);
    delay = Math.min(delay * 2, w.maxDelayMs ?? 30_000);
  }
}

/**
 * Incremental sync (docs/protocol.md "Incremental catalogue sync"): every
 * product changed after `token` ("0": all), inactive and delisted ones
 * included, following sync_token to the end. Save the returned token.
 */
export async function syncProducts<P extends Profile>(
  client: SupplierClient<P>,
  token = "0",
  pageSize = 100,
): Promise<{ items: Page<P> extends { items: infer I } ? I : never; token: string }> {
  // The page's type per profile is the client's; what this loop reads is the same in both.
  const list = client.listProducts as unknown as (q: Record<string, QueryValue>) => Promise<{ items: unknown[]; sync_token?: string }>;
  const items: unknown[] = [];
  for (let round = 0; round < 100_000; round++) {
    const page = await list({ updated_after: token, include_inactive: true, page_size: pageSize });
    items.push(...page.items);
    if (!page.sync_token) throw new SupplierProtocolError("GET /products: no sync_token (the server does not offer incremental sync)");
    token = page.sync_token;
    if (page.items.length < pageSize) break;
  }
  return { items: items as never, token };
}
