import { beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../audit/actor";
import { saveProduct } from "../catalog/save-product";
import { db } from "../db/client";
import { createOrder } from "../orders/create-order";
import { expectError } from "../testing/expect-error";
import { cardKeysFor, makeBuyer, makeProduct } from "../testing/factories";
import { runCli } from "../testing/run-cli";
import { useTestDatabase } from "../testing/test-database";
import { openClaim } from "./open-claim";

// Issue 26.3: "a window per product (default 24 h after delivery, 0 = no
// after-sales)" is the operator's to set: in the console's product form
// (saveProduct) and with `product:after-sales`, not only in the database.

let url: string;
beforeAll(async () => {
  url = await useTestDatabase();
});

let seq = 0;
const claim = (buyerId: number, orderId: number) =>
  openClaim({ credentialId: buyerId, orderId, requestId: `W-${Date.now()}-${++seq}`, line: 0, reason: "does not activate" });

/** The console form's input for an existing product, as its page fills it in. */
async function formOf(productId: number) {
  const p = await db().product.findUniqueOrThrow({ where: { id: productId } });
  return {
    id: p.id,
    slug: p.slug,
    categoryId: p.categoryId,
    title: p.title as { "zh-CN": string; en: string },
    description: p.description as { "zh-CN": string; en: string },
    content: p.content as { "zh-CN": string; en: string },
    fulfillmentType: p.fulfillmentType,
    deliveryFormat: p.deliveryFormat,
    deliveryDelimiter: p.deliveryDelimiter,
    manualFormSchema: p.manualFormSchema as never,
    price: "10.00",
    isActive: p.isActive,
    logo: p.logo,
    images: p.images,
  };
}

describe("issue 26.3: the after-sales window per product", () => {
  it("issue 26.3: the console's product form and product:after-sales set the window; 0 = no after-sales; bad values write nothing (CLI arguments: scripts/cli/claims.test.ts)", async () => {
    const { sku, product } = await makeProduct({ priceCents: 1000n, cardKeys: cardKeysFor("WIN", 4) });
    expect(product.afterSalesHours).toBe(24); // the default
    const buyer = await makeBuyer({ pointsCents: 10_000n });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "P",
      input: { downstreamOrderNo: `W-${Date.now()}`, skuId: sku.id, quantity: 2 },
    });
    const hours = async () => (await db().product.findUniqueOrThrow({ where: { id: product.id } })).afterSalesHours;

    // Console: the product form's window field.
    await saveProduct({ ...(await formOf(product.id)), afterSalesHours: 0 }, { actor: CLI_ACTOR });
    expect(await hours()).toBe(0);
    const closed = await expectError(claim(buyer.id, order.id), "after_sales_closed", 409);
    expect(closed.publicMessage).toMatch(/no after-sales/);
    // Saved without the field (an older form): the window stays as it is.
    await saveProduct(await formOf(product.id), { actor: CLI_ACTOR });
    expect(await hours()).toBe(0);
    for (const bad of [-1, 1.5, 8761]) {
      await expectError(saveProduct({ ...(await formOf(product.id)), afterSalesHours: bad }, { actor: CLI_ACTOR }), "bad_request", 400);
    }
    expect(await hours()).toBe(0);

    // CLI: product:after-sales reopens it, audited.
    const set = await runCli(["product:after-sales", "--product", String(product.id), "--hours", "48"], { DATABASE_URL: url });
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toEqual({ product_id: product.id, slug: product.slug, after_sales_hours: 48, after_sales_replaces: 1 });
    expect(await hours()).toBe(48);
    expect((await claim(buyer.id, order.id)).created).toBe(true);
    const audit = await db().auditLog.findFirst({ where: { action: "product.after_sales", targetId: String(product.id) } });
    expect(audit?.details).toMatchObject({ previous: 0, hours: 48 });

    const missing = await runCli(["product:after-sales", "--product", "2147483647", "--hours", "1"], { DATABASE_URL: url });
    expect(missing.stderr).toMatch(/product 2147483647 not found/);
    expect(await hours()).toBe(48);
  }, 120_000);
});
