import { SYSTEM_ACTOR } from "../audit/actor";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli";
import { db } from "../db/client";
import { createOrder } from "../orders/create-order";
import { makeBuyer } from "../testing/factories";
import { startStubSupplier, upstreamProduct, type StubSupplier } from "../testing/stub-supplier";
import { startStubUpstream } from "../testing/stub-upstream";
import { useTestDatabase } from "../testing/test-database";
import { addUpstreamConnection } from "./add-upstream-connection";
import { clientFor, loadConnection } from "./connection";
import { importUpstreamCatalog } from "./import-upstream-catalog";
import { pingUpstreamConnection } from "./list-upstream-connections";
import { runPurchaseJob } from "./run-purchase";

// Issue 8.3: a hostile upstream gets nothing. A stub supplier on loopback
// answers whatever the test wants: redirects, endless bodies, error text of
// its choosing; none of it is followed, buffered or echoed.

const EVIL = "EVIL-ECHO <b>call +1-555-0100</b>";
let url: string;
let sup: StubSupplier;
let connectionId: number;
const cli = (...args: string[]) => runCli(args, { DATABASE_URL: url });

beforeAll(async () => {
  url = await useTestDatabase();
  sup = await startStubSupplier(EVIL);
  connectionId = (
    await addUpstreamConnection(
      { name: "stub", baseUrl: sup.stub.origin, profile: "P", apiKey: "k", apiSecret: "s", maxWaitSeconds: 60 },
      { actor: SYSTEM_ACTOR },
    )
  ).id;
}, 60_000);
afterAll(async () => {
  await sup?.stub.close();
});
beforeEach(() => {
  sup.route = () => undefined;
});

const local = (upstreamProductId: number) =>
  db().product.findFirst({ where: { upstreamConnectionId: connectionId, upstreamProductId }, include: { skus: true } });

describe("issue 8.3: a hostile upstream gets nothing", () => {
  it("issue 8.3: an answer larger than 10 MiB is aborted while it streams, and nothing is imported", async () => {
    sup.route = (req) => (req.path.startsWith("/products") ? { stream: { totalBytes: 64 * 1024 * 1024 } } : undefined);
    const before = sup.stub.requests.length;
    await expect(importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR })).rejects.toThrow(
      /answer larger than 10485760 bytes; not read/,
    );
    const index = sup.stub.requests.findIndex((r, i) => i >= before && r.includes("/products"));
    // Read up to the cap, then the transfer is cut: far from the 64 MiB offered.
    await new Promise((r) => setTimeout(r, 200));
    expect(sup.stub.streamed.get(index)).toBeLessThan(32 * 1024 * 1024);

    sup.route = (req) =>
      req.path.startsWith("/categories") ? { headers: { "Content-Length": String(11 * 1024 * 1024) }, body: "" } : undefined;
    await expect(importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR })).rejects.toThrow(/larger than 10485760 bytes/);
  }, 60_000);

  it("issue 8.3: a redirect is not followed", async () => {
    const elsewhere = await startStubUpstream();
    try {
      sup.route = (req) =>
        req.path.startsWith("/categories")
          ? { status: 302, headers: { Location: `${elsewhere.origin}/api/v1/provider/categories` } }
          : undefined;
      await expect(importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR })).rejects.toThrow(
        /HTTP 302: the upstream redirected; redirects are not followed/,
      );
      sup.route = (req) =>
        req.path.startsWith("/ping") ? { status: 307, headers: { Location: `${elsewhere.origin}/api/v1/provider/ping` } } : undefined;
      expect((await pingUpstreamConnection(connectionId, { actor: SYSTEM_ACTOR })).ok).toBe(false);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  }, 60_000);

  it("issue 8.3: an upstream's error text reaches neither the console (ping, import, add) nor the buyer (failure reason) nor the purchase record", async () => {
    sup.route = (req) =>
      req.path.startsWith("/ping") ? { status: 401, body: { ok: false, error_code: "unauthorized", error_message: EVIL } } : undefined;
    expect(await pingUpstreamConnection(connectionId, { actor: SYSTEM_ACTOR })).toEqual({
      ok: false,
      balance: null,
      error: "HTTP 401 unauthorized",
    });
    const add = await addUpstreamConnection(
      {
        name: "x",
        baseUrl: sup.stub.origin,
        profile: "P",
        apiKey: "k",
        apiSecret: "s",
        maxWaitSeconds: 60,
      },
      { actor: SYSTEM_ACTOR },
    ).catch((e: Error) => e.message);
    expect(add).toMatch(/HTTP 401 unauthorized\)/);
    expect(add).not.toContain("EVIL");

    sup.route = (req) =>
      req.path.startsWith("/categories") ? { status: 418, body: { ok: false, error_code: EVIL, error_message: EVIL } } : undefined;
    const imp = await cli("upstream:import", "--connection", String(connectionId));
    expect(imp.code).toBe(1);
    expect(imp.stderr).toMatch(/could not read the upstream catalogue \(HTTP 418\)/);
    expect(imp.stderr).not.toContain("EVIL");

    // A purchase: a refusal with the upstream's text, then a failed upstream order with its text.
    sup.route = () => undefined;
    sup.items = [upstreamProduct(7)];
    await importUpstreamCatalog({ connectionId, actor: SYSTEM_ACTOR });
    const sku = (await local(7))!.skus[0];
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
    sup.route = (req) =>
      req.method === "POST" ? { status: 400, body: { ok: false, error_code: "sku_unavailable", error_message: EVIL } } : undefined;
    const refused = await buy("HOSTILE-1");
    expect(refused).toMatchObject({ status: "failed", errorMessage: "the upstream supplier refused the order (sku_unavailable)" });
    expect(refused.upstreamPurchase?.lastError).toBe("HTTP 400 sku_unavailable");

    sup.route = (req) => {
      if (req.method !== "POST") return undefined;
      const no = (JSON.parse(req.body) as { downstream_order_no: string }).downstream_order_no;
      return {
        body: { ok: true, order_id: 77, order_no: "UP77", downstream_order_no: no, status: "failed", amount: "-5.00", error_message: EVIL },
      };
    };
    const failed = await buy("HOSTILE-2");
    expect(failed).toMatchObject({ status: "failed", errorMessage: "the upstream supplier failed the order" });
    expect(failed.upstreamPurchase).toMatchObject({ status: "failed", costCents: null }); // a negative cost is not kept
    expect(JSON.stringify(failed, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain("EVIL");
    expect((await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } })).balanceCents).toBe(10_000n); // both refunded (D22)

    const client = clientFor(await loadConnection(connectionId));
    sup.route = () => ({ status: 500, body: { ok: false, error_code: "internal_error", error_message: EVIL } });
    const e = await client.getOrder(77).catch((x: Error) => x.message);
    expect(e).toBe("HTTP 500 internal_error");
  }, 120_000);
});
