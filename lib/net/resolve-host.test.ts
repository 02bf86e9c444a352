import { SYSTEM_ACTOR } from "../audit/actor";
import crypto from "node:crypto";
import zlib from "node:zlib";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCallbackUrlAllowed } from "../callbacks/address-policy";
import { sendCallback } from "../callbacks/send-callback";
import { db } from "../db/client";
import { deliverOrder } from "../fulfillment/deliver-order";
import { startWorker, type WorkerHandle } from "../worker/start-worker";
import { createOrder } from "../orders/create-order";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../testing/callback-receiver";
import { makeBuyer, makeProduct } from "../testing/factories";
import { startStubNameserver, type StubNameserver } from "../testing/stub-nameserver";
import { startStubUpstream, type StubUpstream } from "../testing/stub-upstream";
import { useTestDatabase } from "../testing/test-database";
import { upstreamClient, UpstreamError } from "../upstream/upstream-client";
import { MAX_CONCURRENT_LOOKUPS, resolveHost } from "./resolve-host";

// Issue 22.3: host names are resolved by c-ares (DNS_SERVERS, here a stub
// nameserver on 127.0.0.1), under a 2 s deadline, off libuv's thread pool.
// Before, dns.lookup asked the system's resolver: these names were unknown to
// it, and a nameserver that never answered held a pool thread per look-up.

const pbkdf2 = promisify(crypto.pbkdf2);
const gzip = promisify(zlib.gzip);
const creds = { apiKey: "sk_test", apiSecret: "secret-never-logged" };

let dns: StubNameserver;
let receiver: CallbackReceiver;
let upstream: StubUpstream;
let worker: WorkerHandle;
let seq = 0;

beforeAll(async () => {
  process.env.CALLBACK_RETRY_SCHEDULE = "0.5,0.5,0.5,0.5";
  const url = await useTestDatabase();
  dns = await startStubNameserver();
  receiver = await startCallbackReceiver();
  upstream = await startStubUpstream();
  worker = await startWorker({ connectionString: url, concurrency: 2, pollIntervalMs: 50 });
});
afterAll(async () => {
  await worker?.stop();
  await Promise.all([dns?.close(), receiver?.close(), upstream?.close()]);
  delete process.env.DNS_SERVERS;
});
beforeEach(() => {
  process.env.DNS_SERVERS = dns.server;
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the receiver and the upstream are on loopback
  dns.silent = false;
  dns.records = {
    "hooks.example.test": ["127.0.0.1"],
    "mixed.example.test": ["93.184.216.34", "::1"],
    "upstream.example.test": ["127.0.0.1"],
  };
  dns.questions.length = 0;
  receiver.received.length = 0;
});

/** Runs `work` while `slow` is pending; returns how long the work took and whether `slow` was still pending when it ended. */
async function whilePending(slow: Promise<unknown>, work: () => Promise<unknown>) {
  let pending = true;
  void slow.finally(() => (pending = false)).catch(() => undefined);
  const started = Date.now();
  await work();
  return { ms: Date.now() - started, slowStillPending: pending };
}
/** Pool work: 8 key derivations and the gzip of a catalogue-page-sized JSON, each on libuv's thread pool. */
const page = Buffer.from(
  JSON.stringify(
    Array.from({ length: 100 }, (_, i) => ({ id: i, title: `Product ${i}`, price_amount: "9.90", content: "x".repeat(2000) })),
  ),
);
const poolWork = () => Promise.all([...Array.from({ length: 8 }, (_, i) => pbkdf2(`pw${i}`, "salt", 1000, 32, "sha256")), gzip(page)]);

describe("issue 22.3: host names resolved off the thread pool", () => {
  it("issue 22.3: names go to the DNS_SERVERS nameserver (A and AAAA, every answer checked by D29); IP literals and localhost need no query", async () => {
    const port = new URL(receiver.origin).port;
    const sent = await sendCallback(`http://hooks.example.test:${port}/cb`, '{"a":1}', creds);
    expect(sent).toMatchObject({ ok: true, httpStatus: 200 });
    expect(receiver.received[0].headers.host).toBe(`hooks.example.test:${port}`);
    expect(dns.questions).toEqual(
      expect.arrayContaining([
        { name: "hooks.example.test", type: "A" },
        { name: "hooks.example.test", type: "AAAA" },
      ]),
    );

    expect(await resolveHost("mixed.example.test")).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "::1", family: 6 },
    ]);
    // D29 as strong as before: the AAAA answer (loopback) refuses the name when private networks are not allowed.
    delete process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS;
    await expect(assertCallbackUrlAllowed("https://mixed.example.test/cb")).rejects.toMatchObject({
      code: "bad_request",
      publicMessage: "callback_url points to a restricted network address",
    });
    expect((await sendCallback(`http://hooks.example.test:${port}/cb`, "{}", creds)).error).toBe("refused to connect: loopback address");
    expect((await sendCallback("http://localhost:9/cb", "{}", creds)).error).toBe("refused to connect: loopback address");

    const asked = dns.questions.length;
    expect(await resolveHost("127.0.0.1")).toEqual([{ address: "127.0.0.1", family: 4 }]);
    expect(await resolveHost("[::1]")).toEqual([{ address: "::1", family: 6 }]);
    expect((await resolveHost("localhost")).map((a) => a.address)).toContain("127.0.0.1");
    expect((await resolveHost("api.localhost")).map((a) => a.address)).toEqual(["127.0.0.1", "::1"]);
    expect(dns.questions.length).toBe(asked);
    await expect(resolveHost("unknown.example.test")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });

  it('issue 22.3: a nameserver that never answers: the order is refused after 2 s with 400 "callback host did not resolve", nothing is written, and thread-pool work is not stalled', async () => {
    dns.silent = true;
    const buyer = await makeBuyer({ pointsCents: 50_000n });
    const { sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 990n, stockQuantity: 5 });
    const started = Date.now();
    const order = createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: `DNS-${++seq}`, skuId: sku.id, quantity: 1, callbackUrl: "https://hooks-silent.example.test/cb" },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    // 100 more look-ups at once: more than the per-process bound, all waiting on the silent nameserver.
    const flood = Promise.allSettled(Array.from({ length: 100 }, (_, i) => assertCallbackUrlAllowed(`https://h${i}.example.test/cb`)));

    const pool = await whilePending(order, poolWork);
    expect(pool.slowStillPending).toBe(true);
    expect(pool.ms).toBeLessThan(1500);
    // The look-ups in flight are bounded (32 names at once, MAX_CONCURRENT_LOOKUPS); the rest queue without a question.
    // (The nameserver reads its datagrams on this busy event loop: wait, bounded, until they are all in.)
    const askedNames = () => new Set(dns.questions.map((q) => q.name)).size;
    await waitFor(() => askedNames() >= MAX_CONCURRENT_LOOKUPS, 1500, 10).catch(() => undefined);
    expect(askedNames()).toBe(MAX_CONCURRENT_LOOKUPS);

    const err = await order;
    const ms = Date.now() - started;
    expect(err).toMatchObject({ code: "bad_request", status: 400, publicMessage: "callback host did not resolve" });
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(4000);
    expect(await db().order.count({ where: { credentialId: buyer.id } })).toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(50_000n);

    const results = await flood;
    expect(Date.now() - started).toBeLessThan(4500); // the queued look-ups gave up at their own deadline, not after the queue
    expect(
      results.every(
        (r) => r.status === "rejected" && (r.reason as { publicMessage?: string }).publicMessage === "callback host did not resolve",
      ),
    ).toBe(true);
  });

  it("issue 22.3: a callback whose host does not resolve in time is an attempt that failed and is retried on the D28 schedule, then delivered", async () => {
    const port = new URL(receiver.origin).port;
    const buyer = await makeBuyer({ pointsCents: 50_000n });
    const { sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 990n, stockQuantity: 5 });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: `DNS-${++seq}`, skuId: sku.id, quantity: 1, callbackUrl: `http://hooks.example.test:${port}/cb` },
    });
    dns.silent = true;
    await deliverOrder({ orderNo: order.orderNo, payloadText: "CARD-DNS", actor: SYSTEM_ACTOR });
    const first = await waitFor(() => db().callbackAttempt.findFirst({ where: { callback: { orderId: order.id } } }));
    expect(first).toMatchObject({ httpStatus: null, error: "host name did not resolve within 2000 ms" });
    expect(first.durationMs).toBeGreaterThanOrEqual(1900);
    expect(await db().callback.findFirstOrThrow({ where: { orderId: order.id } })).toMatchObject({ status: "pending", attemptCount: 1 });

    dns.silent = false; // the nameserver is back: the next scheduled attempt gets through
    await waitFor(async () => (await db().callback.findFirstOrThrow({ where: { orderId: order.id } })).status === "delivered");
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ order_no: order.orderNo, status: "delivered" });
  });

  it("issue 22.3: an upstream base URL is resolved the same way: reached by name, and a silent nameserver is a network failure after 2 s (retried later), not a 15 s hang", async () => {
    upstream.answer = ({ path }) => (path === "/ping" ? { body: { ok: true, balance: "12.00" } } : { status: 404, body: {} });
    const endpoint = {
      baseUrl: `http://upstream.example.test:${new URL(upstream.origin).port}`,
      profile: "U" as const,
      apiKey: "k",
      apiSecret: "s",
    };
    expect(await upstreamClient(endpoint).ping()).toMatchObject({ ok: true, balance: "12.00" });
    expect(dns.questions.some((q) => q.name === "upstream.example.test")).toBe(true);

    dns.silent = true;
    const started = Date.now();
    const err = await upstreamClient({ ...endpoint, baseUrl: "http://upstream-silent.example.test" })
      .ping()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ kind: "network", message: "connection failed: ETIMEOUT" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
