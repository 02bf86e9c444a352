import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { startAppServer, type AppServer } from "../testing/app-server";
import { cardKeysFor, makeBuyer, makeCategory, makeProduct } from "../testing/factories";
import { cloneTestDatabase, onDatabase, useTestDatabase } from "../testing/test-database";
import { applyMarkup, markupBasisPoints } from "./import-upstream-catalog";
import { anyNumber, anyString } from "@/lib/testing/matchers";

// Catalogue import from an upstream (issue 4) and the upstream CLI commands:
// B is a real app instance with its own database; A is this process's
// database, driven through `npm run cli` as an operator would.

let aUrl: string;
let bUrl: string;
let B: AppServer;
let bPool: pg.Pool;
let seed: Awaited<ReturnType<typeof seedB>>;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: aUrl });

const FORM = {
  fields: [
    { key: "uid", type: "text", required: true, label: { "zh-CN": "用户", en: "User" }, placeholder: { "zh-CN": "", en: "" }, max_len: 20 },
  ],
};

async function seedB() {
  await db().siteSettings.update({ where: { id: 1 }, data: { rateLimitPerKey: 100_000, rateLimitPerIp: 100_000 } });
  const account = await makeBuyer({ pointsCents: 123_456n });
  const parent = await makeCategory({ sortOrder: 1 });
  const child = await makeCategory({ parentId: parent.id, sortOrder: 2 });
  return {
    account,
    parent,
    child,
    auto: await makeProduct({ categoryId: child.id, priceCents: 999n, cardKeys: cardKeysFor("IMP", 3), deliveryFormat: "text" }),
    manual: await makeProduct({
      categoryId: parent.id,
      fulfillmentType: "manual",
      priceCents: 1n,
      stockQuantity: 5,
      manualFormSchema: FORM,
      deliveryFormat: "account_password",
    }),
    unlimited: await makeProduct({ categoryId: parent.id, fulfillmentType: "manual", priceCents: 333n, stockQuantity: null }),
    inactive: await makeProduct({ categoryId: parent.id, priceCents: 500n, isActive: false }),
  };
}

beforeAll(async () => {
  aUrl = await useTestDatabase();
  bUrl = await cloneTestDatabase();
  bPool = new pg.Pool({ connectionString: bUrl, max: 2 });
  seed = await onDatabase(bUrl, seedB);
  B = await startAppServer(bUrl);
}, 120_000);
afterAll(async () => {
  await B?.stop();
  await bPool?.end();
});

describe("price rule", () => {
  it("price × (1 + markup %), rounded UP to 0.01 in integer fen", () => {
    expect(applyMarkup(1000n, markupBasisPoints("10"))).toBe(1100n);
    expect(applyMarkup(999n, markupBasisPoints("10"))).toBe(1099n); // 10.989 → 10.99
    expect(applyMarkup(1n, markupBasisPoints("10"))).toBe(2n); // 0.011 → 0.02
    expect(applyMarkup(333n, markupBasisPoints("12.5"))).toBe(375n); // 3.74625 → 3.75
    expect(applyMarkup(1234n, markupBasisPoints("0"))).toBe(1234n);
    expect(applyMarkup(100n, markupBasisPoints("0.01"))).toBe(101n); // 1.0001 → 1.01
    expect(() => markupBasisPoints("-5")).toThrow(/markup percent/);
    expect(() => markupBasisPoints("1.234")).toThrow(/markup percent/);
  });
});

describe("upstream CLI and catalogue import", () => {
  let connectionId: number;

  it("upstream:add pings first: refuses a wrong secret or a dead address, stores a working one encrypted", async () => {
    const base = ["upstream:add", "--name", "Supplier B", "--profile", "P", "--api-key", seed.account.apiKey];
    const [wrong, dead, bad] = await Promise.all([
      cli(...base, "--base-url", B.baseUrl, "--api-secret", "not-the-secret"),
      cli(...base, "--base-url", "http://127.0.0.1:9", "--api-secret", seed.account.apiSecret),
      cli(...base, "--base-url", "ftp://x", "--api-secret", "s", "--max-wait-seconds", "0"),
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/did not answer the ping correctly \(HTTP 401 unauthorized/);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/did not answer the ping correctly \(connection failed/);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--base-url: must be an http or https URL/);
    expect(await db().upstreamConnection.count()).toBe(0);

    const ok = await cli<{ id: number }>(
      ...base,
      "--base-url",
      `${B.baseUrl}/`,
      "--api-secret",
      seed.account.apiSecret,
      "--max-wait-seconds",
      "600",
    );
    expect(ok.code).toBe(0);
    expect(ok.json).toEqual({ id: anyNumber() });
    connectionId = ok.json.id;
    const stored = await db().upstreamConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(stored).toMatchObject({ baseUrl: B.baseUrl, profile: "P", maxWaitSeconds: 600, lastPingOk: true, lastBalance: "1234.56" });
    expect(Buffer.from(stored.secretCiphertext).toString("latin1")).not.toContain(seed.account.apiSecret);
    expect(decryptText(stored.secretCiphertext)).toBe(seed.account.apiSecret);

    const list = await cli<{ connections: unknown[] }>("upstream:list");
    expect(list.json.connections).toEqual([
      expect.objectContaining({
        id: connectionId,
        name: "Supplier B",
        profile: "P",
        last_ping_ok: true,
        balance: "1234.56",
        last_ping_at: anyString(),
      }),
    ]);
    expect(list.stdout).not.toContain(seed.account.apiSecret);
  }, 120_000);

  it("imports categories, products and SKUs with the markup; a second import changes nothing", async () => {
    const first = await cli("upstream:import", "--connection", String(connectionId), "--markup-percent", "10");
    expect(first.json).toEqual({
      categories_created: 2,
      categories_updated: 0,
      categories_delisted: 0,
      products_created: 4,
      products_updated: 0,
      products_delisted: 0,
      skus_created: 4,
      skus_updated: 0,
      skus_delisted: 0,
      skipped: [],
      held: [],
    });
    const mapped = (bProductId: number) =>
      db().product.findFirstOrThrow({
        where: { upstreamConnectionId: connectionId, upstreamProductId: bProductId },
        include: { skus: true, category: true },
      });
    const auto = await mapped(seed.auto.product.id);
    expect(auto).toMatchObject({
      fulfillmentType: "upstream",
      priceCents: 1099n,
      isActive: true,
      title: seed.auto.product.title,
      deliveryFormat: "text",
    });
    expect(auto.skus).toEqual([
      expect.objectContaining({ upstreamSkuId: seed.auto.sku.id, priceCents: 1099n, stockQuantity: 3, isActive: true }),
    ]);
    expect(auto.category).toMatchObject({ upstreamCategoryId: seed.child.id, name: seed.child.name });
    const parent = await db().category.findFirstOrThrow({
      where: { upstreamConnectionId: connectionId, upstreamCategoryId: seed.parent.id },
    });
    expect(auto.category.parentId).toBe(parent.id);
    const manual = await mapped(seed.manual.product.id);
    expect(manual).toMatchObject({
      priceCents: 2n,
      deliveryFormat: "account_password",
      deliveryDelimiter: "----",
      manualFormSchema: FORM,
      content: seed.manual.product.content,
    });
    expect(manual.skus[0]).toMatchObject({ priceCents: 2n, stockQuantity: 5 });
    expect((await mapped(seed.unlimited.product.id)).skus[0]).toMatchObject({ priceCents: 367n, stockQuantity: null }); // 3.663 → 3.67; -1 → unlimited
    expect(await mapped(seed.inactive.product.id)).toMatchObject({ isActive: false });

    const again = await cli<Record<string, unknown[] | number>>(
      "upstream:import",
      "--connection",
      String(connectionId),
      "--markup-percent",
      "10",
    );
    const { skipped, held, ...counts } = again.json;
    expect(skipped).toEqual([]);
    expect(held).toEqual([]);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  }, 120_000);

  it("a re-import updates prices and stock and delists what the upstream delisted or no longer lists", async () => {
    await bPool.query(`UPDATE "Sku" SET "priceCents" = 2000, "updatedAt" = now() WHERE "id" = $1`, [seed.auto.sku.id]);
    await bPool.query(`UPDATE "Product" SET "priceCents" = 2000 WHERE "id" = $1`, [seed.auto.product.id]);
    await bPool.query(`UPDATE "Sku" SET "stockQuantity" = 2 WHERE "id" = $1`, [seed.manual.sku.id]);
    await bPool.query(`UPDATE "Product" SET "isActive" = false WHERE "id" = $1`, [seed.unlimited.product.id]);
    await bPool.query(`UPDATE "Product" SET "deletedAt" = now() WHERE "id" = $1`, [seed.inactive.product.id]);
    await new Promise((r) => setTimeout(r, 1200)); // B's catalogue snapshot is at most 1 s old

    const r = await cli("upstream:import", "--connection", String(connectionId), "--markup-percent", "10");
    expect(r.json).toMatchObject({ products_updated: 1, products_delisted: 1, skus_updated: 2, categories_created: 0 });
    const local = (bProductId: number) =>
      db().product.findFirstOrThrow({
        where: { upstreamConnectionId: connectionId, upstreamProductId: bProductId },
        include: { skus: true },
      });
    expect(await local(seed.auto.product.id)).toMatchObject({ priceCents: 2200n, skus: [expect.objectContaining({ priceCents: 2200n })] });
    expect((await local(seed.manual.product.id)).skus[0].stockQuantity).toBe(2);
    expect(await local(seed.unlimited.product.id)).toMatchObject({ isActive: false });
    expect(await local(seed.inactive.product.id)).toMatchObject({ isActive: false }); // no longer listed: stays delisted

    const bad = await cli("upstream:import", "--connection", "999999");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/upstream connection 999999 not found/);
  }, 120_000);
});
