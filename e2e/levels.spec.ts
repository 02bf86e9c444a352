import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { apiCall, cli, DEMO_BUYER, signIn, type OrderAnswer } from "./helpers";

// Issue 12.4, member-level prices in the console: a level created and
// renamed on the Levels page, a buyer moved to it on the buyer's page, a price
// for it typed on the SKU form (blank = the SKU's price); that buyer's order
// over the API then costs the level price, another buyer's the SKU price.

test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const level = `e2e-gold-${stamp}`;
const buyer = `e2e-level-${stamp}@example.com`;
const productSlug = `e2e-level-product-${stamp}`;
let page: Page;
let skuId = 0;
let skuUrl = "";

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
});
test.afterAll(async () => page?.close());

test("creates a member level, refuses a bad slug, and renames it", async () => {
  await page.goto("/admin/levels");
  const form = page.getByTestId("create-level-form");
  await form.locator("#f-slug").fill("Not A Slug");
  await form.locator("#f-name_en").fill("Gold");
  await form.locator("#f-name_zh").fill("黄金");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=alert]")).toContainText("slug");

  await form.locator("#f-slug").fill(level);
  await form.locator("#f-name_en").fill("Gold");
  await form.locator("#f-name_zh").fill("黄金");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=status]")).toHaveText("Level added.");
  await page.reload();
  const table = page.getByTestId("levels-table");
  await expect(table).toContainText(level);

  await table.locator("tr", { hasText: level }).getByRole("link", { name: "Rename" }).click();
  const rename = page.getByTestId("rename-level-form");
  await rename.locator("#f-rename-en").fill("Gold reseller");
  await rename.locator("#f-rename-zh").fill("金牌经销商");
  await rename.locator("button[type=submit]").click();
  await expect(rename.locator(".msg[role=status]")).toHaveText("Level renamed.");
  await page.reload();
  await expect(page.getByTestId("levels-table").locator("tr", { hasText: level })).toContainText("Gold reseller");
});

test("moves a buyer to the level on the buyer's page", async () => {
  cli("user:create", "--email", buyer, "--points", "100.00");
  await page.goto(`/admin/buyers?q=${encodeURIComponent(buyer)}`);
  await page.getByTestId("buyers-table").getByRole("link", { name: buyer }).click();
  const form = page.getByTestId("member-level-form");
  await form.locator("#f-level").selectOption(level);
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=status]")).toHaveText("Member level changed.");
  await page.reload();
  await expect(page.locator("dl.kv")).toContainText("Gold reseller");
});

test("a level price typed on the SKU form is what that buyer's order costs; blank gives the SKU's price back", async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "e2e-levels-")), "catalog.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      categories: [{ slug: `e2e-level-cat-${stamp}`, name: { "zh-CN": "等级", en: "Levels" } }],
      products: [
        {
          slug: productSlug,
          category: `e2e-level-cat-${stamp}`,
          title: { "zh-CN": "等级商品", en: "Level product" },
          fulfillment_type: "manual",
          price_amount: "10.00",
          skus: [{ sku_code: `E2E-LVL-${stamp}` }],
        },
      ],
    }),
  );
  cli("catalog:import", file);

  await page.goto(`/admin/catalog/products?q=${encodeURIComponent(productSlug)}`);
  await page.getByRole("link", { name: productSlug }).click();
  await page.getByTestId("skus-table").getByRole("link", { name: "Edit" }).click();
  skuUrl = new URL(page.url()).pathname + new URL(page.url()).search;
  skuId = Number(new URL(page.url()).searchParams.get("sku"));
  const form = page.getByTestId("sku-form");
  await form.locator(`#f-level-price-${level}`).fill("7.5");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=status]")).toHaveText("SKU saved.");
  await page.goto(skuUrl);
  await expect(page.getByTestId("sku-form").locator(`#f-level-price-${level}`)).toHaveValue("7.50");
  // A bad amount is refused, naming the level.
  await page.getByTestId("sku-form").locator(`#f-level-price-${level}`).fill("-1");
  await page.getByTestId("sku-form").locator("button[type=submit]").click();
  await expect(page.getByTestId("sku-form").locator(".msg[role=alert]")).toContainText(level);

  const member = cli("apikey:create", "--email", buyer, "--name", "e2e level") as { api_key: string; api_secret: string };
  const demo = cli("apikey:create", "--email", DEMO_BUYER, "--name", "e2e level demo") as { api_key: string; api_secret: string };
  const order = (creds: { api_key: string; api_secret: string }) =>
    apiCall<OrderAnswer>({ apiKey: creds.api_key, apiSecret: creds.api_secret }, "POST", "/v1/provider/orders", {
      downstream_order_no: `E2E-LVL-${Date.now()}-${Math.random()}`,
      sku_id: skuId,
      quantity: 2,
    });
  const atLevel = await order(member);
  expect(atLevel.status, JSON.stringify(atLevel.json)).toBe(200);
  expect(atLevel.json.amount).toBe("15.00");
  const atDefault = await order(demo);
  expect(atDefault.json.amount).toBe("20.00");

  await page.goto(skuUrl);
  await page.getByTestId("sku-form").locator(`#f-level-price-${level}`).fill("");
  await page.getByTestId("sku-form").locator("button[type=submit]").click();
  await expect(page.getByTestId("sku-form").locator(".msg[role=status]")).toHaveText("SKU saved.");
  expect((await order(member)).json.amount).toBe("20.00");
});
