import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderWireChunks } from "../serializers/order-stream";
import type { Endpoint } from "./define-endpoint";
import { HANDLERS } from "./endpoints";
import { toResponse, type Answer } from "./responses";
import { createRouter } from "./router";

// Issue 40.3: a streamed answer whose source fails half-way (a batch of keys
// that cannot be read) must not end as a well-formed body: both transports abort.

/** A large order's answer whose second batch of keys fails, as a lost database connection does. */
function failingAnswer(): Answer {
  const wire = {
    ok: true,
    order_id: 1,
    fulfillment: { type: "card_key", status: "delivered", payload: "", delivery_data: [] as string[] },
  };
  const chunks = orderWireChunks(wire, async function* () {
    yield Array.from({ length: 4000 }, (_, i) => `KEY-${i}`);
    await Promise.resolve();
    throw new Error("Connection terminated unexpectedly");
  });
  return { status: 200, headers: { "Content-Type": "application/json; charset=utf-8" }, body: new Uint8Array(0), stream: chunks() };
}

const failing: Endpoint = { name: HANDLERS.getOrder.name, serve: () => Promise.resolve(failingAnswer()) };
let server: http.Server;
let port: number;

beforeAll(async () => {
  const router = createRouter({ ...HANDLERS, getOrder: failing });
  server = http.createServer((req, res) => {
    if (!router.serveNode(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("streamed answers", () => {
  it("issue 40.3: our HTTP server aborts the connection when a streamed answer fails mid-way (no complete body)", async () => {
    const outcome = await new Promise<{ received: number; error?: string; ended?: true }>((resolve) => {
      http
        .get({ host: "127.0.0.1", port, path: "/api/v1/upstream/orders/1", agent: false }, (res) => {
          let received = 0;
          res.on("data", (c: Buffer) => (received += c.length));
          res.on("end", () => resolve({ received, ended: true }));
          res.on("error", (err) => resolve({ received, error: err.message }));
        })
        .on("error", (err) => resolve({ received: 0, error: err.message }));
    });
    expect(outcome.ended).toBeUndefined();
    expect(outcome.error).toMatch(/aborted|ECONNRESET|socket hang up/);
    expect(outcome.received).toBeGreaterThan(0); // the head and the first batch were sent
  });

  it("issue 40.3: the Next route's Response errors when a streamed answer fails mid-way", async () => {
    await expect(toResponse(failingAnswer()).text()).rejects.toThrow();
  });
});
