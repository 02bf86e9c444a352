import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "@/lib/admins/create-admin";
import { openClaim } from "@/lib/after-sales/open-claim";
import { refundOrderPart } from "@/lib/after-sales/refund-order-part";
import { resolveClaim } from "@/lib/after-sales/resolve-claim";
import { CLI_ACTOR, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/client";
import { createOrder } from "@/lib/orders/create-order";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { cardKeysFor, makeBuyer, makeProduct } from "@/lib/testing/factories";
import { signIn } from "@/lib/testing/sign-in-client";
import { startStubOrderSupplier, type StubOrderSupplier } from "@/lib/testing/stub-order-supplier";
import { useTestDatabase } from "@/lib/testing/test-database";
import { addUpstreamConnection } from "@/lib/upstream/add-upstream-connection";
import { editSkuSources } from "@/lib/upstream/edit-sku-sources";

// Issue 33.4: the console's claims page, rendered by the real server for a
// signed-in administrator, shows per open claim what its order has refunded
// already and what a replace would do: refused (refunded in full, or the
// line's replacements used up; then no replace form), our next card key, or a
// purchase from an upstream source at its known cost and ceiling. The
// upstream is a stub supplier speaking our protocol on loopback.

const SLOW_MACHINE_MS = 300_000;
const PASSWORD = "correct horse battery staple";
let server: AppServer;
let upstream: StubOrderSupplier;
let session: string;
let seq = 0;

beforeAll(async () => {
  const url = await useTestDatabase();
  [server, upstream] = await Promise.all([startAppServer(url), startStubOrderSupplier("UP-CLAIMS")]);
  await createAdmin({ email: "claims-page@example.com", password: PASSWORD }, { actor: SYSTEM_ACTOR });
  session = (await signIn(server.baseUrl, { email: "claims-page@example.com", password: PASSWORD, from: "127.0.0.62" })).session!;
}, SLOW_MACHINE_MS);
afterAll(async () => Promise.all([server?.stop(), upstream?.close()]));

/** A delivered order of `quantity` of our keys at 10.00, `spare` more in stock, and an open claim of each line given. */
async function claimedOrder(quantity: number, spare: number, claimLines: number[]) {
  const { sku, product } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor(`CP${++seq}`, quantity + spare) });
  const buyer = await makeBuyer({ pointsCents: 100_000n });
  const { order } = await createOrder({
    credential: { id: buyer.id, userId: buyer.user.id },
    profile: "P",
    input: { downstreamOrderNo: `CP-${Date.now()}-${seq}`, skuId: sku.id, quantity },
  });
  expect(order.status).toBe("delivered");
  const claims = [];
  for (const line of claimLines) {
    claims.push(
      (await openClaim({ credentialId: buyer.id, orderId: order.id, requestId: `CP-${seq}-${line}`, line, reason: "dead" })).claim,
    );
  }
  return { sku, product, order, buyer, claims };
}

const field = (html: string, testId: string) => {
  const m = new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html);
  return m?.[1] ?? null;
};

describe("issue 33.4: the claims page shows the refunded amount and what a replace would do", { timeout: SLOW_MACHINE_MS }, () => {
  it("issue 33.4: the console claim page shows the order's refunded amount and the upstream replace's source and cost; a replace that would be refused is not offered", async () => {
    // Our keys are gone and the SKU's only source is an upstream whose last hop cost 7.50, at most 9.00.
    const conn = await addUpstreamConnection(
      {
        name: upstream.name,
        baseUrl: upstream.origin,
        profile: "P",
        apiKey: "k",
        apiSecret: "s",
        maxWaitSeconds: 60,
      },
      { actor: SYSTEM_ACTOR },
    );
    const bought = await claimedOrder(1, 0, [0]);
    const change = { op: "add-upstream" as const, connectionId: conn.id, upstreamSkuId: 7, maxCostCents: 900n };
    await editSkuSources({ skuCode: bought.sku.skuCode, change, actor: SYSTEM_ACTOR });
    await editSkuSources({ skuCode: bought.sku.skuCode, change: { op: "remove", position: 1 }, actor: SYSTEM_ACTOR });
    await db().skuSource.updateMany({ where: { skuId: bought.sku.id }, data: { lastCostCents: 750n } });
    await refundOrderPart({ orderNo: bought.order.orderNo, amount: "3.00", reason: "late", actor: CLI_ACTOR });

    // 2 x 10.00: 15.00 by hand, then the claim of line 0 refunds the 5.00 left; line 1's claim may no longer be replaced.
    const full = await claimedOrder(2, 2, [0, 1]);
    await refundOrderPart({ orderNo: full.order.orderNo, amount: "15.00", reason: "goodwill", actor: CLI_ACTOR });
    await resolveClaim({ claimId: full.claims[0].id, action: "refund", actor: CLI_ACTOR });

    // A line replaced once (the default allowance), claimed again; and a plain claim with our keys in stock.
    const replaced = await claimedOrder(1, 3, [0]);
    await resolveClaim({ claimId: replaced.claims[0].id, action: "replace", actor: CLI_ACTOR });
    const again = (
      await openClaim({ credentialId: replaced.buyer.id, orderId: replaced.order.id, requestId: "CP-again", line: 0, reason: "dead" })
    ).claim;
    const local = await claimedOrder(1, 1, [0]);

    const res = await fetch(new URL("/admin/claims", server.baseUrl), { headers: { cookie: session }, redirect: "manual" });
    expect(res.status).toBe(200);
    const html = await res.text();

    const up = bought.claims[0].id;
    expect(field(html, `claim-refunded-${up}`)).toBe("3.00 of 10.00");
    expect(field(html, `claim-outlook-${up}`)).toBe(`buy one key upstream from ${upstream.name} at 7.50 (at most 9.00)`);
    expect(html).toContain(`data-testid="replace-${up}"`);

    const closed = full.claims[1].id;
    expect(field(html, `claim-refunded-${closed}`)).toBe("20.00 of 20.00");
    expect(field(html, `claim-outlook-${closed}`)).toBe("be refused: the order is refunded in full");
    expect(html).not.toContain(`data-testid="replace-${closed}"`);
    expect(html).toContain(`data-testid="refund-${closed}"`);

    expect(field(html, `claim-refunded-${again.id}`)).toBe("0.00 of 10.00");
    expect(field(html, `claim-outlook-${again.id}`)).toMatch(/^be refused: this line was replaced 1 time\(s\), the product allows 1/);
    expect(html).not.toContain(`data-testid="replace-${again.id}"`);

    expect(field(html, `claim-outlook-${local.claims[0].id}`)).toBe("take our next card key of the SKU (no purchase)");
    // A forecast only: nothing was bought or taken by showing the page.
    expect(upstream.createsReceived).toBe(0);
    expect(await db().cardKey.count({ where: { orderId: local.order.id } })).toBe(1);
  });
});
