import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/client";
import { createOrder } from "@/lib/orders/create-order";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "@/lib/testing/callback-receiver";
import { makeBuyer, makeProduct } from "@/lib/testing/factories";
import { balanceOf, ledgerSum } from "@/lib/testing/points";
import { runCli } from "@/lib/testing/run-cli";
import { useTestDatabase } from "@/lib/testing/test-database";
import { freePort } from "@/lib/net/free-port";
import { createFulfillerToken } from "./create-fulfiller-token";
import { revokeFulfillerToken } from "./revoke-fulfiller-token";

// Issue 39 (decision 0093), over real HTTP to two app servers on one
// database: fulfiller tokens list, claim, deliver and fail manual orders
// through the console's own services; examples/fulfiller.ts is the worker.

const SLOW = 300_000;
let dbUrl: string;
let A: AppServer;
let B: AppServer;
let receiver: CallbackReceiver;
let seq = 0;

beforeAll(async () => {
  dbUrl = await useTestDatabase();
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true";
  receiver = await startCallbackReceiver();
  const env = { CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" };
  [A, B] = await Promise.all([startAppServer(dbUrl, { ...env, WORKER_IN_SERVER: "true" }), startAppServer(dbUrl, env)]);
}, SLOW);
afterAll(async () => {
  await Promise.all([A?.stop(), B?.stop(), receiver?.close()]);
});

interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T & { ok?: false; error_code?: string; error_message?: string };
}

async function api<T = Record<string, unknown>>(
  server: AppServer,
  token: string,
  method: string,
  path: string,
  body?: string | object,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const res = await fetch(`${server.baseUrl}/api/fulfiller/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Reply<T>["body"] };
}
const post = (
  server: AppServer,
  token: string,
  orderNo: string,
  action: string,
  body?: string | object,
  headers?: Record<string, string>,
) => api(server, token, "POST", `/orders/${encodeURIComponent(orderNo)}/${action}`, body, headers);

async function token(name: string, extra: { productIds?: number[]; webhookUrl?: string } = {}) {
  return createFulfillerToken({ name: `${name}-${++seq}`, ...extra }, { actor: CLI_ACTOR });
}

/** `n` waiting manual orders of one buyer (Profile U, with a callback URL). */
async function manualOrders(n: number, skuId: number, buyer: Awaited<ReturnType<typeof makeBuyer>>) {
  const orders = [];
  for (let i = 0; i < n; i++) {
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "U",
      input: { downstreamOrderNo: `FUL-${++seq}-${i}`, skuId, quantity: 1, callbackUrl: `${receiver.origin}/cb` },
    });
    orders.push(order);
  }
  return orders;
}

function runExample(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/fulfiller.ts"], {
    env: { ...process.env, FULFILLER_POLL_SECONDS: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ status: number | null; stderr: string }>((resolve) =>
    child.on("exit", (status) => resolve({ status, stderr })),
  );
  return { child, exited, stderr: () => stderr };
}

const statusOf = async (orderNo: string) => (await db().order.findUniqueOrThrow({ where: { orderNo } })).status;

describe("issue 39: the fulfiller API", () => {
  it(
    "issue 39.1: four example workers in parallel deliver (or fail) 100 waiting orders, each once; callbacks and ledger exact",
    async () => {
      const buyer = await makeBuyer({ pointsCents: 1_000_000n });
      const { product, sku } = await makeProduct({ fulfillmentType: "manual", priceCents: 500n });
      const failing = await makeProduct({ fulfillmentType: "manual", priceCents: 700n });
      const t = await token("bulk", { productIds: [product.id, failing.product.id] });
      const orders = [...(await manualOrders(90, sku.id, buyer)), ...(await manualOrders(10, failing.sku.id, buyer))];
      const before = await balanceOf(buyer.user.id);
      expect(before).toBe(1_000_000n - 90n * 500n - 10n * 700n);

      const workers = [A, B, A, B].map((s) =>
        runExample({
          FULFILLER_BASE_URL: s.baseUrl,
          FULFILLER_TOKEN: t.token,
          FULFILLER_ONCE: "1",
          FULFILLER_DEMO_FAIL_SKU: String(failing.sku.id),
        }),
      );
      const results = await Promise.all(workers.map((w) => w.exited));
      for (const r of results) expect(r.status, r.stderr).toBe(0);

      const ids = orders.map((o) => o.id);
      const rows = await db().order.findMany({ where: { id: { in: ids } }, select: { status: true } });
      expect(rows.filter((r) => r.status === "delivered")).toHaveLength(90);
      expect(rows.filter((r) => r.status === "failed")).toHaveLength(10);
      expect(await db().fulfillment.count({ where: { orderId: { in: ids } } })).toBe(90);
      const audits = await db().auditLog.findMany({
        where: { targetId: { in: orders.map((o) => o.orderNo) }, action: { in: ["order.deliver", "order.fail"] } },
      });
      expect(audits).toHaveLength(100);
      expect(new Set(audits.map((a) => a.targetId)).size).toBe(100);
      expect(new Set(audits.map((a) => a.actor))).toEqual(new Set([`fulfiller:${t.name}`]));
      // Ledger: the ten failures refunded once each, nothing else moved.
      expect(await balanceOf(buyer.user.id)).toBe(before + 10n * 700n);
      expect(await ledgerSum(buyer.user.id)).toBe(await balanceOf(buyer.user.id));
      expect(await db().pointsLedger.count({ where: { orderId: { in: ids }, deltaCents: { gt: 0n } } })).toBe(10);
      // One callback per order, each received once (the in-server worker sends them).
      expect(await db().callback.count({ where: { orderId: { in: ids } } })).toBe(100);
      const mine = () => receiver.received.filter((r) => orders.some((o) => r.body.includes(`"${o.orderNo}"`)));
      await waitFor(() => mine().length >= 100, 60_000);
      expect(mine()).toHaveLength(100);
      expect(await db().fulfillerLease.count({ where: { orderId: { in: ids } } })).toBe(0);
    },
    SLOW,
  );

  it("issue 39.2: another token gets 409 while a lease lives; its expiry hands the order to another worker", async () => {
    const buyer = await makeBuyer();
    const { product, sku } = await makeProduct({ fulfillmentType: "manual" });
    const [one, two] = [await token("lease-1", { productIds: [product.id] }), await token("lease-2", { productIds: [product.id] })];
    const [order] = await manualOrders(1, sku.id, buyer);
    const first = await post(A, one.token, order.orderNo, "claim", { lease_seconds: 5 });
    expect(first.status).toBe(200);
    expect(Date.parse(String(first.body.lease_until)) - Date.now()).toBeLessThanOrEqual(6000);
    expect((await post(B, two.token, order.orderNo, "claim", {})).body.error_code).toBe("order_leased");
    expect((await post(B, two.token, order.orderNo, "deliver", { lines: ["X"] })).body.error_code).toBe("lease_required");
    const listed = await api<{ items: { order_no: string }[] }>(B, two.token, "GET", "/orders");
    expect(listed.body.items.map((i) => i.order_no)).not.toContain(order.orderNo);
    // Claiming again with the same token extends its own lease.
    expect((await post(A, one.token, order.orderNo, "claim", { lease_seconds: 5 })).status).toBe(200);
    await waitFor(async () => (await post(B, two.token, order.orderNo, "claim", { lease_seconds: 60 })).status === 200, 15_000, 250);
    expect((await post(A, one.token, order.orderNo, "deliver", { lines: ["LATE"] })).body.error_code).toBe("lease_required");
    const done = await post(B, two.token, order.orderNo, "deliver", { lines: ["K-1"] });
    expect(done).toEqual({ status: 200, body: { order_no: order.orderNo, status: "delivered", lines: 1 } });
    expect((await post(A, one.token, order.orderNo, "claim", {})).body.error_code).toBe("order_final");
  });

  it("issue 39.3: revoke stops a token at once on both instances and frees its leases; the CLI prints the token once", async () => {
    const buyer = await makeBuyer();
    const { product, sku } = await makeProduct({ fulfillmentType: "manual" });
    const created = await runCli<{ id: number; name: string; token: string }>(
      ["fulfiller:create", "--name", `cli-${++seq}`, "--product-ids", String(product.id)],
      { DATABASE_URL: dbUrl },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.json.token).toMatch(/^ful_/);
    const listed = await runCli<{ tokens: object[] }>(["fulfiller:list"], { DATABASE_URL: dbUrl });
    expect(listed.stdout).not.toContain(created.json.token);
    const other = await token("after-revoke", { productIds: [product.id] });
    const [order] = await manualOrders(1, sku.id, buyer);
    expect((await post(A, created.json.token, order.orderNo, "claim", { lease_seconds: 3600 })).status).toBe(200);
    const revoked = await runCli<{ leases_dropped: number }>(["fulfiller:revoke", "--id", String(created.json.id)], {
      DATABASE_URL: dbUrl,
    });
    expect(revoked.json.leases_dropped).toBe(1);
    for (const s of [A, B]) {
      expect((await api(s, created.json.token, "GET", "/orders")).status).toBe(401);
      expect((await post(s, created.json.token, order.orderNo, "deliver", { lines: ["X"] })).body.error_code).toBe("unauthorized");
    }
    expect((await post(B, other.token, order.orderNo, "claim", {})).status).toBe(200);
    expect(await statusOf(order.orderNo)).toBe("processing");
    const audit = await db().auditLog.findMany({ where: { targetType: "fulfiller", targetId: created.json.name }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["fulfiller.create", "fulfiller.revoke"]);
  });

  it("issue 39.4: an order outside the scope or missing is 404, a delivered one 409, with a D1 body; nothing changes", async () => {
    const buyer = await makeBuyer();
    const mine = await makeProduct({ fulfillmentType: "manual" });
    const theirs = await makeProduct({ fulfillmentType: "manual" });
    const t = await token("scope", { productIds: [mine.product.id] });
    const [inside] = await manualOrders(1, mine.sku.id, buyer);
    const [outside] = await manualOrders(1, theirs.sku.id, buyer);
    const listed = await api<{ items: { order_no: string; product_id: number; form: object; lease_until: null }[] }>(
      A,
      t.token,
      "GET",
      "/orders?limit=100",
    );
    expect(listed.body.items.map((i) => i.order_no)).toEqual([inside.orderNo]);
    expect(listed.body.items[0]).toMatchObject({ product_id: mine.product.id, quantity: 1, form: {}, lease_until: null });
    for (const orderNo of [outside.orderNo, "NO-SUCH-ORDER"]) {
      const r = await post(A, t.token, orderNo, "claim", {});
      expect(r).toEqual({ status: 404, body: { ok: false, error_code: "order_not_found", error_message: `order ${orderNo} not found` } });
    }
    expect(await db().fulfillerLease.count({ where: { orderId: outside.id } })).toBe(0);
    expect(await statusOf(outside.orderNo)).toBe("processing");
    expect((await post(A, t.token, inside.orderNo, "claim", {})).status).toBe(200);
    expect((await post(A, t.token, inside.orderNo, "deliver", { lines: ["A", "B"] })).status).toBe(200);
    const again = await post(A, t.token, inside.orderNo, "deliver", { lines: ["C"] });
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe("order_final");
    expect(await db().fulfillment.count({ where: { orderId: inside.id } })).toBe(1);
  });

  it("issue 39.5: the same Idempotency-Key and body answer the same and change nothing; another body is 409", async () => {
    const buyer = await makeBuyer();
    const { product, sku } = await makeProduct({ fulfillmentType: "manual" });
    const t = await token("idem", { productIds: [product.id] });
    const [order] = await manualOrders(1, sku.id, buyer);
    expect((await post(A, t.token, order.orderNo, "claim", { lease_seconds: 600 }, { "Idempotency-Key": "c-1" })).status).toBe(200);
    const key = { "Idempotency-Key": "d-1" };
    const answers = await Promise.all(
      [A, B, A, B, A].map((s) => post(s, t.token, order.orderNo, "deliver", { lines: ["K-1", "K-2"] }, key)),
    );
    for (const a of answers) expect(a).toEqual({ status: 200, body: { order_no: order.orderNo, status: "delivered", lines: 2 } });
    expect(await db().fulfillment.count({ where: { orderId: order.id } })).toBe(1);
    expect(await db().auditLog.count({ where: { targetId: order.orderNo, action: "order.deliver" } })).toBe(1);
    expect(await db().callback.count({ where: { orderId: order.id } })).toBe(1);
    const other = await post(B, t.token, order.orderNo, "deliver", { lines: ["K-3"] }, key);
    expect(other.status).toBe(409);
    expect(other.body.error_code).toBe("idempotency_conflict");
    expect((await post(B, t.token, order.orderNo, "fail", { reason: "x" }, key)).body.error_code).toBe("idempotency_conflict");
  });

  it("issue 39.6: hostile input is a clear 4xx with a D1 body, writes nothing, never a 500", async () => {
    const buyer = await makeBuyer();
    const { product, sku } = await makeProduct({ fulfillmentType: "manual" });
    const t = await token("hostile", { productIds: [product.id] });
    const [order] = await manualOrders(1, sku.id, buyer);
    const audits = () => db().auditLog.count({ where: { targetId: order.orderNo } });
    const auditsBefore = await audits();
    const cases: [string, string | object | undefined, number, string, Record<string, string>?][] = [
      ["claim", "{not json", 400, "invalid_json"],
      ["claim", { lease_seconds: 4 }, 400, "bad_request"],
      ["claim", { lease_seconds: 3601 }, 400, "bad_request"],
      ["claim", { lease_seconds: "300" }, 400, "bad_request"],
      ["claim", { lease_seconds: 1.5 }, 400, "bad_request"],
      ["claim", [], 400, "bad_request"],
      ["claim", { lease_seconds: 60, extra: 1 }, 400, "bad_request"],
      ["claim", "x".repeat(1_100_000), 413, "request_too_large"],
      ["claim", {}, 400, "bad_request", { "Idempotency-Key": "k".repeat(201) }],
      ["deliver", { lines: [] }, 400, "bad_request"],
      ["deliver", { lines: Array.from({ length: 10_001 }, () => "x") }, 400, "bad_request"],
      ["deliver", { lines: ["a\nb"] }, 400, "bad_request"],
      ["deliver", { lines: ["  "] }, 400, "bad_request"],
      ["deliver", { lines: "abc" }, 400, "bad_request"],
      ["deliver", { lines: ["ok"] }, 409, "lease_required"],
      ["fail", { reason: "" }, 400, "bad_request"],
      ["fail", { reason: "r".repeat(201) }, 400, "bad_request"],
      ["fail", {}, 400, "bad_request"],
      ["explode", {}, 404, "not_found"],
    ];
    for (const [action, body, status, code, headers] of cases) {
      const r = await post(A, t.token, order.orderNo, action, body, headers);
      expect({ action, status: r.status, code: r.body.error_code, ok: r.body.ok }).toEqual({ action, status, code, ok: false });
      expect(typeof r.body.error_message).toBe("string");
    }
    for (const q of ["?limit=0", "?limit=101", "?limit=abc", "?limit=5&x=1"])
      expect((await api(A, t.token, "GET", `/orders${q}`)).status).toBe(400);
    for (const auth of ["", "Bearer ", "Bearer ful_nope", "Basic abc", `Bearer ${t.token}x`]) {
      const res = await fetch(`${A.baseUrl}/api/fulfiller/v1/orders`, { headers: auth ? { Authorization: auth } : {} });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error_code: string }).error_code).toBe("unauthorized");
    }
    expect(await db().fulfillerLease.count({ where: { orderId: order.id } })).toBe(0);
    expect(await statusOf(order.orderNo)).toBe("processing");
    expect(await audits()).toBe(auditsBefore);
    expect(A.output() + B.output()).not.toContain("internal error");
  });

  it("issue 39.7: a webhook token gets a signed order.waiting push; the example worker in webhook mode delivers from it", async () => {
    const buyer = await makeBuyer();
    const { product, sku } = await makeProduct({ fulfillmentType: "manual" });
    const port = await freePort();
    const t = await token("hook", { productIds: [product.id], webhookUrl: `http://127.0.0.1:${port}/fulfil` });
    expect(t.webhook_secret).toMatch(/^[0-9a-f]{64}$/);
    const stored = await db().fulfillerToken.findUniqueOrThrow({ where: { id: t.id } });
    expect(stored.tokenHash).not.toContain(t.token);
    expect(Buffer.from(stored.webhookSecretCiphertext!).toString("latin1")).not.toContain(t.webhook_secret);
    // Poll only once a minute: a delivery within seconds came from the push.
    const worker = runExample({
      FULFILLER_BASE_URL: A.baseUrl,
      FULFILLER_TOKEN: t.token,
      FULFILLER_WEBHOOK_PORT: String(port),
      FULFILLER_WEBHOOK_SECRET: t.webhook_secret!,
      FULFILLER_POLL_SECONDS: "60",
    });
    try {
      await waitFor(() => /webhook listening/.test(worker.stderr()), 30_000);
      // The worker's first pass (at start) must be over before the orders exist, or it, not the push, delivers them.
      await waitFor(() => /first pass done/.test(worker.stderr()), 30_000);
      const orders = await manualOrders(3, sku.id, buyer);
      await waitFor(
        async () => (await db().order.count({ where: { id: { in: orders.map((o) => o.id) }, status: "delivered" } })) === 3,
        30_000,
        200,
      );
      const events = await db().fulfillerEvent.findMany({ where: { tokenId: t.id }, orderBy: { id: "asc" } });
      expect(events).toHaveLength(3);
      const body = JSON.parse(events[0].body) as Record<string, unknown>;
      expect(body).toMatchObject({ event: "order.waiting", product_id: product.id, sku_id: sku.id, quantity: 1 });
      // Each push answered 200 by the worker, which checked its signature with the webhook_secret first.
      await waitFor(async () => (await db().fulfillerEvent.count({ where: { tokenId: t.id, status: "delivered" } })) === 3, 15_000, 200);
    } finally {
      worker.child.kill("SIGTERM");
      await worker.exited;
    }
  });

  it("issue 39.8: the served OpenAPI document lists the fulfiller paths beside the supplier API", async () => {
    const res = await fetch(`${A.baseUrl}/api/docs/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    for (const p of [
      "/api/fulfiller/v1/orders",
      "/api/fulfiller/v1/orders/{order_no}/claim",
      "/api/fulfiller/v1/orders/{order_no}/deliver",
      "/api/fulfiller/v1/orders/{order_no}/fail",
    ])
      expect(Object.keys(doc.paths)).toContain(p);
  });

  it("issue 39.3: revoking twice is harmless and a revoked token's name stays taken", async () => {
    const t = await token("twice");
    await revokeFulfillerToken({ id: t.id, actor: CLI_ACTOR });
    expect((await revokeFulfillerToken({ id: t.id, actor: CLI_ACTOR })).leases_dropped).toBe(0);
    await expect(createFulfillerToken({ name: t.name }, { actor: CLI_ACTOR })).rejects.toThrow(/exists/);
  });
});
