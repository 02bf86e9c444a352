import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli";
import { SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { createOrder } from "../orders/create-order";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "../testing/factories";
import { startStubOrderSupplier, type StubOrderSupplier } from "../testing/stub-order-supplier";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { chooseSources, hopOrderNo } from "./choose-source";
import { breakerAllows, recordCallOutcome } from "./circuit-breaker";
import { editSkuSources } from "./edit-sku-sources";
import { loadSkuSources, type SkuSourceView } from "./load-sku-sources";
import { runPurchaseJob } from "./run-purchase";

// Issue 26.1/26.2 at unit level: the two policies, hop numbers, the default
// (migrated) one-source lists, the sku:sources CLI, the breaker in PostgreSQL.

const src = (position: number, over: Partial<SkuSourceView> = {}): SkuSourceView => ({
  id: position,
  position,
  kind: "upstream",
  connectionId: position,
  connectionName: `c${position}`,
  upstreamSkuId: 10,
  maxCostCents: null,
  isEnabled: true,
  knownCostCents: null,
  knownStock: null,
  breaker: "closed",
  ...over,
});
const pick = (policy: "priority" | "cheapest", sources: SkuSourceView[], tried: string[] = []) =>
  chooseSources({ policy, sources, tried: new Set(tried), quantity: 1, ceilingCents: () => 1000n }).map((s) => s.position);

describe("issue 26.1: choosing a source (pure)", () => {
  it("issue 26.1: priority keeps list order and leaves out our keys, disabled, tried, open-breaker and too-costly sources", () => {
    const list = [
      src(1, { kind: "local", connectionId: null, upstreamSkuId: null }),
      src(2),
      src(3, { isEnabled: false }),
      src(4, { breaker: "open" }),
      src(5, { knownCostCents: 1001n }),
      src(6, { breaker: "half-open" }),
      src(7, { knownStock: 0 }),
      src(8),
    ];
    expect(pick("priority", list)).toEqual([2, 6, 7, 8]);
    expect(pick("priority", list, ["2:10"])).toEqual([6, 7, 8]);
  });

  it("issue 26.1: cheapest takes the lowest known cost among sources with stock, unknown costs after, out-of-stock ones last in list order", () => {
    const list = [
      src(1, { knownCostCents: 900n }),
      src(2, { knownCostCents: 500n, knownStock: 0 }),
      src(3),
      src(4, { knownCostCents: 700n, knownStock: 5 }),
      src(5, { knownCostCents: 700n }),
    ];
    expect(pick("cheapest", list)).toEqual([4, 5, 1, 3, 2]);
    expect(pick("cheapest", list, ["4:10"])).toEqual([5, 1, 3, 2]);
  });

  it("issue 26.2: hop 1 sends the order number, hop n sends '<order_no>-n'", () => {
    expect([1, 2, 3, 10].map((h) => hopOrderNo("SK2026112512345678", h))).toEqual([
      "SK2026112512345678",
      "SK2026112512345678-2",
      "SK2026112512345678-3",
      "SK2026112512345678-10",
    ]);
    expect(() => hopOrderNo("SK1", 0)).toThrow();
  });
});

let url: string;
let a: StubOrderSupplier;
let b: StubOrderSupplier;
let connA: number;
let connB: number;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

beforeAll(async () => {
  Object.assign(process.env, { UPSTREAM_BREAKER_FAILURES: "3", UPSTREAM_BREAKER_OPEN_SECONDS: "1" });
  url = await useTestDatabase();
  [a, b] = await Promise.all([startStubOrderSupplier("A", "4.00"), startStubOrderSupplier("B", "3.00")]);
  connA = (
    await addUpstreamConnection(
      { name: "A", baseUrl: a.origin, profile: "P", apiKey: "ka", apiSecret: "s", maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
  connB = (
    await addUpstreamConnection(
      { name: "B", baseUrl: b.origin, profile: "P", apiKey: "kb", apiSecret: "s", maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe("issue 26.1: lists of sources in the database", () => {
  it("issue 26.1: existing auto, upstream and manual SKUs have their product's one-source list; the first edit saves it unchanged", async () => {
    const categoryId = (await makeCategory()).id;
    const auto = await makeProduct({ categoryId, cardKeys: cardKeysFor("DEF", 1) });
    const manual = await makeProduct({ categoryId, fulfillmentType: "manual" });
    const upstream = await makeProduct({ categoryId, fulfillmentType: "upstream" });
    await db().product.update({ where: { id: upstream.product.id }, data: { upstreamConnectionId: connA, upstreamProductId: 1 } });
    await db().sku.update({ where: { id: upstream.sku.id }, data: { upstreamSkuId: 10, upstreamMaxCostCents: 800n } });

    expect((await loadSkuSources(auto.sku.id))!).toMatchObject({
      own: false,
      policy: "priority",
      sources: [{ id: null, kind: "local", isEnabled: true }],
    });
    expect((await loadSkuSources(manual.sku.id))!.sources).toEqual([]);
    const before = (await loadSkuSources(upstream.sku.id))!;
    expect(before).toMatchObject({
      own: false,
      skuMaxCostCents: 800n,
      sources: [{ id: null, kind: "upstream", connectionId: connA, upstreamSkuId: 10, maxCostCents: null }],
    });

    const after = await editSkuSources({
      skuCode: upstream.sku.skuCode,
      change: { op: "policy", policy: "priority" },
      actor: SYSTEM_ACTOR,
    });
    expect(after.own).toBe(true);
    expect(after.sources.map(({ id: _id, ...rest }) => rest)).toEqual(before.sources.map(({ id: _id, ...rest }) => rest));
  });

  it("issue 26.1: sku:sources prints the list and applies one change at a time (add, move, disable, remove, policy); bad input writes nothing", async () => {
    const { sku } = await makeProduct({ categoryId: (await makeCategory()).id, cardKeys: cardKeysFor("CLI", 1) });
    const edit = (change: Parameters<typeof editSkuSources>[0]["change"]) =>
      editSkuSources({ skuCode: sku.skuCode, change, actor: SYSTEM_ACTOR });
    const shown = await cli("sku:sources", "--sku-code", sku.skuCode);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({ sku_id: sku.id, own_list: false, policy: "priority", sources: [{ position: 1, kind: "local" }] });

    const added = await cli<{ sources: unknown[] }>(
      "sku:sources",
      "--sku-code",
      sku.skuCode,
      "--add-upstream",
      "--connection",
      String(connA),
      "--upstream-sku-id",
      "10",
      "--max-cost",
      "4.50",
    );
    expect(added.json.sources).toMatchObject([
      { kind: "local" },
      { position: 2, kind: "upstream", connection_id: connA, upstream_sku_id: 10, max_cost: "4.50", enabled: true, breaker: "closed" },
    ]);
    await edit({ op: "add-upstream", connectionId: connB, upstreamSkuId: 10, maxCostCents: null });
    const moved = await cli<{ sources: { connection_id: number | null }[] }>(
      "sku:sources",
      "--sku-code",
      sku.skuCode,
      "--move",
      "3",
      "--to",
      "2",
    );
    expect(moved.json.sources.map((s: { connection_id: number | null }) => s.connection_id)).toEqual([null, connB, connA]);
    expect((await edit({ op: "disable", position: 3 })).sources[2].isEnabled).toBe(false);
    expect((await edit({ op: "policy", policy: "cheapest" })).policy).toBe("cheapest");
    expect((await edit({ op: "remove", position: 2 })).sources.map((s) => s.connectionId)).toEqual([null, connA]);

    const audited = await db().auditLog.count({ where: { action: "sku.sources", targetId: String(sku.id) } });
    expect(audited).toBe(6);
    await expect(edit({ op: "move", position: 1, to: 2 })).rejects.toThrow(/always the first source/);
    await expect(edit({ op: "add-upstream", connectionId: connA, upstreamSkuId: 10, maxCostCents: null })).rejects.toThrow(
      /already a source/,
    );
    await expect(edit({ op: "remove", position: 9 })).rejects.toThrow(/no source at position 9/);
    await expect(edit({ op: "add-local" })).rejects.toThrow(/already a source/);
    const [refused, usage, twoChanges] = await Promise.all([
      cli("sku:sources", "--sku-code", sku.skuCode, "--move", "1", "--to", "2"),
      cli("sku:sources", "--sku-code", sku.skuCode, "--policy", "random"),
      cli("sku:sources", "--sku-code", sku.skuCode, "--remove", "1", "--add-local"),
    ]);
    expect([refused.code, usage.code, twoChanges.code]).toEqual([2, 2, 2]); // bad_request is a usage error (exit 2)
    expect(refused.stderr).toMatch(/always the first source/);
    expect(usage.stderr).toMatch(/priority or cheapest/);
    expect(await db().auditLog.count({ where: { action: "sku.sources", targetId: String(sku.id) } })).toBe(audited);
    expect((await loadSkuSources(sku.id))!.sources).toHaveLength(2);
  }, 300_000);

  it("issue 26.1: under `cheapest` the order goes to the source with the lower last known cost; under `priority` to the first", async () => {
    const { sku } = await makeProduct({
      categoryId: (await makeCategory()).id,
      fulfillmentType: "upstream",
      priceCents: 1000n,
      stockQuantity: null,
    });
    for (const connectionId of [connA, connB]) {
      await editSkuSources({
        skuCode: sku.skuCode,
        change: { op: "add-upstream", connectionId, upstreamSkuId: 10, maxCostCents: null },
        actor: SYSTEM_ACTOR,
      });
    }
    await db().skuSource.updateMany({ where: { skuId: sku.id, connectionId: connA }, data: { lastCostCents: 400n } });
    await db().skuSource.updateMany({ where: { skuId: sku.id, connectionId: connB }, data: { lastCostCents: 300n } });
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const buy = async (no: string) => {
      const { order } = await createOrder({
        credential: { id: buyer.id, userId: buyer.user.id },
        profile: "P",
        input: { downstreamOrderNo: no, skuId: sku.id, quantity: 1 },
      });
      const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } });
      await runPurchaseJob({ purchaseId: purchase.id });
      return db().order.findUniqueOrThrow({ where: { id: order.id }, include: { upstreamPurchase: true } });
    };
    expect((await buy("PRIO-1")).upstreamPurchase).toMatchObject({ connectionId: connA, status: "delivered", costCents: 400n });
    await editSkuSources({ skuCode: sku.skuCode, change: { op: "policy", policy: "cheapest" }, actor: SYSTEM_ACTOR });
    const cheap = await buy("CHEAP-1");
    expect(cheap).toMatchObject({
      status: "delivered",
      upstreamPurchase: { connectionId: connB, hop: 1, downstreamOrderNo: cheap.orderNo, costCents: 300n },
    });
  }, 60_000);

  it("issue 26.2 / 26.4: an outcome still unknown at the connection's max wait goes to review, never to the next source", async () => {
    const { sku } = await makeProduct({
      categoryId: (await makeCategory()).id,
      fulfillmentType: "upstream",
      priceCents: 1000n,
      stockQuantity: null,
    });
    for (const connectionId of [connA, connB]) {
      await editSkuSources({
        skuCode: sku.skuCode,
        change: { op: "add-upstream", connectionId, upstreamSkuId: 10, maxCostCents: null },
        actor: SYSTEM_ACTOR,
      });
    }
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "P",
      input: { downstreamOrderNo: "UNKNOWN-1", skuId: sku.id, quantity: 1 },
    });
    const purchase = await db().upstreamPurchase.findUniqueOrThrow({ where: { orderId: order.id } });
    const bCreates = b.createsReceived;
    a.down = true;
    try {
      await runPurchaseJob({ purchaseId: purchase.id }); // 503: may hide an order, so the same hop is retried
      expect(await db().upstreamPurchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({
        hop: 1,
        connectionId: connA,
        status: "pending",
        lastError: "HTTP 503 internal_error",
      });
      await db().upstreamPurchase.update({ where: { id: purchase.id }, data: { deadlineAt: new Date(Date.now() - 1000) } });
      await runPurchaseJob({ purchaseId: purchase.id });
    } finally {
      a.down = false;
    }
    const after = await db().order.findUniqueOrThrow({
      where: { id: order.id },
      include: { upstreamPurchase: { include: { hops: true } } },
    });
    expect(after).toMatchObject({
      status: "unknown_review",
      upstreamPurchase: { hop: 1, connectionId: connA, status: "unknown", hops: [] },
    });
    expect(b.createsReceived).toBe(bCreates); // B was never asked
  });

  it("issue 26.2: K failures open a connection's breaker for every instance; after T one caller wins the probe; a success closes it", async () => {
    const conn = (
      await addUpstreamConnection(
        { name: "flaky", baseUrl: a.origin, profile: "P", apiKey: "kf", apiSecret: "s", maxWaitSeconds: 60 },
        { actor: SYSTEM_ACTOR },
      )
    ).id;
    const { sku } = await makeProduct({ categoryId: (await makeCategory()).id, fulfillmentType: "upstream" });
    await editSkuSources({
      skuCode: sku.skuCode,
      change: { op: "add-upstream", connectionId: conn, upstreamSkuId: 10, maxCostCents: null },
      actor: SYSTEM_ACTOR,
    });
    for (let i = 0; i < 2; i++) await recordCallOutcome(conn, false);
    expect(await breakerAllows(conn)).toBe(true);
    await recordCallOutcome(conn, false); // the third in a row (UPSTREAM_BREAKER_FAILURES=3)
    expect(await breakerAllows(conn)).toBe(false);
    expect((await loadSkuSources(sku.id))!.sources[0].breaker).toBe("open");

    await new Promise((r) => setTimeout(r, 1100)); // UPSTREAM_BREAKER_OPEN_SECONDS=1
    expect((await loadSkuSources(sku.id))!.sources[0].breaker).toBe("half-open");
    const probes = await Promise.all(Array.from({ length: 8 }, () => breakerAllows(conn)));
    expect(probes.filter(Boolean)).toHaveLength(1);
    await recordCallOutcome(conn, true);
    expect(await db().upstreamConnection.findUniqueOrThrow({ where: { id: conn } })).toMatchObject({
      breakerFailures: 0,
      breakerOpenUntil: null,
    });
    expect(await breakerAllows(conn)).toBe(true);
  });
});
