// A complete fulfiller worker (issue 39, docs/fulfiller.md): it delivers the
// manual orders a token may see, with your own code in `fulfil` below.
//
//   FULFILLER_BASE_URL=http://127.0.0.1:3000 FULFILLER_TOKEN=ful_… npx tsx examples/fulfiller.ts
//
// Poll mode (default): list waiting orders every FULFILLER_POLL_SECONDS (5).
// Webhook mode: also FULFILLER_WEBHOOK_PORT=8787 and FULFILLER_WEBHOOK_SECRET=…
// (the token made with --webhook-url http://<this host>:8787/…): a signed
// order.waiting push starts a pass at once; the poll still runs, slower, to
// catch anything a push missed. FULFILLER_ONCE=1: one pass, then exit (cron).
//
// Per order: claim (a lease), fulfil, deliver; an error in `fulfil` fails the
// order (refunded) with the error's message. Every POST carries an
// Idempotency-Key, so a request retried after a network error changes nothing twice.
import http from "node:http";
import { HEADER_SIGNATURE, HEADER_TIMESTAMP } from "../lib/protocol/headers";
import { verifySignature } from "../lib/protocol/signing";

interface WaitingOrder {
  order_no: string;
  product_id: number;
  sku_id: number;
  quantity: number;
  form: Record<string, unknown>;
}

const base = process.env.FULFILLER_BASE_URL;
const token = process.env.FULFILLER_TOKEN;
if (!base || !token) {
  process.stderr.write("set FULFILLER_BASE_URL and FULFILLER_TOKEN (see docs/fulfiller.md)\n");
  process.exit(2);
}
const pollMs = Number(process.env.FULFILLER_POLL_SECONDS ?? 5) * 1000;
const say = (line: string) => process.stderr.write(line + "\n");

/**
 * YOUR CODE: do the work (top up the account in `order.form`, buy a code
 * elsewhere…) and return what the buyer receives, one entry per line. Throw
 * to fail the order: the buyer is refunded and sees the message.
 */
async function fulfil(order: WaitingOrder): Promise<string[]> {
  await Promise.resolve(); // your asynchronous work here
  if (process.env.FULFILLER_DEMO_FAIL_SKU === String(order.sku_id)) throw new Error("out of stock at our provider");
  return Array.from({ length: order.quantity }, (_, i) => `CODE-${order.order_no}-${i + 1}`);
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** One API call; a network error or a 5xx is retried (a POST with the same Idempotency-Key). */
async function call<T>(method: "GET" | "POST", path: string, body?: object, key?: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(new URL(`/api/fulfiller/v1${path}`, base), {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as T & { error_code?: string; error_message?: string };
      if (res.ok) return json;
      if (res.status < 500 || attempt >= 3) throw new ApiError(res.status, json.error_code ?? "error", json.error_message ?? "");
    } catch (err) {
      if (err instanceof ApiError || attempt >= 3) throw err;
    }
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
}

/** Claims, fulfils and delivers (or fails) one order; false when another worker has it. */
async function handle(order: WaitingOrder): Promise<boolean> {
  try {
    await call(
      "POST",
      `/orders/${encodeURIComponent(order.order_no)}/claim`,
      { lease_seconds: 120 },
      `claim-${order.order_no}-${Date.now()}`,
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return false; // leased by another worker, or already done
    throw err;
  }
  let lines: string[];
  try {
    lines = await fulfil(order);
  } catch (err) {
    const reason = String((err as Error).message || "fulfilment failed").slice(0, 200);
    await call("POST", `/orders/${encodeURIComponent(order.order_no)}/fail`, { reason }, `fail-${order.order_no}`);
    say(`${order.order_no} failed: ${reason}`);
    return true;
  }
  await call("POST", `/orders/${encodeURIComponent(order.order_no)}/deliver`, { lines }, `deliver-${order.order_no}`);
  say(`${order.order_no} delivered (${lines.length} lines)`);
  return true;
}

let running: Promise<number> | null = null;
/** One pass: until the list is empty (or only others' orders are left). Passes never overlap. */
function pass(): Promise<number> {
  running ??= (async () => {
    let done = 0;
    for (;;) {
      const { items } = await call<{ items: WaitingOrder[] }>("GET", "/orders?limit=20");
      let progressed = false;
      for (const order of items) {
        if (!(await handle(order))) continue;
        done++;
        progressed = true;
      }
      if (!progressed) return done;
    }
  })().finally(() => (running = null));
  return running;
}

const logPass = (p: Promise<number>) => p.catch((err: unknown) => (say(`pass failed: ${(err as Error).message}`), 0));

if (process.env.FULFILLER_ONCE === "1") {
  say(`done: ${await pass()} orders`);
} else {
  const port = process.env.FULFILLER_WEBHOOK_PORT;
  const secret = process.env.FULFILLER_WEBHOOK_SECRET;
  if (port && secret) {
    http
      .createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          const timestamp = String(req.headers[HEADER_TIMESTAMP.toLowerCase()] ?? "");
          const signature = String(req.headers[HEADER_SIGNATURE.toLowerCase()] ?? "");
          const path = new URL(req.url ?? "/", "http://x").pathname;
          const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
          const ok = fresh && verifySignature({ method: "POST", path, timestamp, body, secret, signature });
          res.writeHead(ok ? 200 : 401).end();
          if (ok) void logPass(pass()); // the push only says "look now"; the pass reads the list itself
        });
      })
      .listen(Number(port), () => say(`webhook listening on ${port}`));
  }
  const everyMs = port && secret ? pollMs * 6 : pollMs;
  await logPass(pass());
  say(`first pass done; next pass in ${everyMs / 1000} s${port && secret ? " or on a push" : ""}`);
  for (;;) {
    await new Promise((r) => setTimeout(r, everyMs));
    await logPass(pass());
  }
}
