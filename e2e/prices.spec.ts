import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { apiCall, cli, signIn, signedInPortalBuyer, type OrderAnswer } from "./helpers";

// Issue 38 in the console and the portal: a credit line and a contract price
// set on the buyer's page, quantity tiers on the SKU's page; the buyer's orders
// over the API then cost the lowest of them and may go into credit, and the
// portal's overview shows the credit line and its use.

test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const skuCode = `E2E-PRICE-${stamp}`;
let admin: Page;
let portal: Page;
let buyer = "";
let skuId = 0;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  portal = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(admin);
  buyer = await signedInPortalBuyer(portal, "e2e-price");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "e2e-prices-")), "catalog.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      categories: [{ slug: `e2e-price-cat-${stamp}`, name: { "zh-CN": "价格", en: "Prices" } }],
      products: [
        {
          slug: `e2e-price-product-${stamp}`,
          category: `e2e-price-cat-${stamp}`,
          title: { "zh-CN": "协议价商品", en: "Contract product" },
          fulfillment_type: "manual",
          price_amount: "10.00",
          skus: [{ sku_code: skuCode, stock_quantity: 100 }],
        },
      ],
    }),
  );
  cli("catalog:import", file);
});
test.afterAll(async () => {
  await admin?.close();
  await portal?.close();
});

test("issue 38: the buyer's page sets a credit line and a contract price; a bad price is refused", async () => {
  await admin.goto(`/admin/buyers?q=${encodeURIComponent(buyer)}`);
  await admin.getByTestId("buyers-table").getByRole("link", { name: buyer }).click();
  const credit = admin.getByTestId("credit-limit-form");
  await credit.locator("#f-limit").fill("30");
  await credit.locator("button[type=submit]").click();
  await expect(credit.locator(".msg[role=status]")).toHaveText("Credit line saved: 30.00.");

  const contract = admin.getByTestId("contract-price-form");
  await contract.locator("#f-sku_code").fill(skuCode);
  await contract.locator("#f-price").fill("8.001");
  await contract.locator("button[type=submit]").click();
  await expect(contract.locator(".msg[role=alert]")).toContainText("Price: must be an amount");
  await contract.locator("#f-price").fill("8");
  await contract.locator("button[type=submit]").click();
  await expect(contract.locator(".msg[role=status]")).toHaveText("Contract price saved.");
  await admin.reload();
  await expect(admin.getByTestId("contract-prices-table")).toContainText(skuCode);
  await expect(admin.getByTestId("contract-prices-table")).toContainText("8.00");
  await expect(admin.getByTestId("buyer-credit")).toContainText("30.00");
});

test("issue 38: the SKU's page sets quantity tiers; tiers out of order are refused", async () => {
  const list = cli("price:contract:list", "--sku-code", skuCode) as { contract_prices: { sku_id: number }[] };
  skuId = list.contract_prices[0].sku_id;
  await admin.goto(`/admin/catalog/skus/${skuId}`);
  const form = admin.getByTestId("price-tiers-form");
  await form.locator("#f-tiers").fill("10:6.00,5:7.00");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=alert]")).toContainText("ascending order");
  await form.locator("#f-tiers").fill("5:7.00,10:6.00");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=status]")).toHaveText("Quantity tiers saved.");
  await admin.reload();
  await expect(admin.getByTestId("sku-tiers")).toHaveText("5:7.00,10:6.00");
});

test("issue 38: the buyer's orders cost the lowest price and run into credit; the portal shows the line and its use", async () => {
  const key = cli("apikey:create", "--email", buyer, "--name", "e2e prices") as { api_key: string; api_secret: string };
  const creds = { apiKey: key.api_key, apiSecret: key.api_secret };
  const order = (quantity: number) =>
    apiCall<OrderAnswer & { items: { unit_price: string; price_rule: string }[] }>(creds, "POST", "/v1/provider/orders", {
      downstream_order_no: `E2E-PRICE-${Date.now()}-${quantity}`,
      sku_id: skuId,
      quantity,
    });
  const one = await order(1);
  expect(one.status, JSON.stringify(one.json)).toBe(200);
  expect(one.json.items[0]).toMatchObject({ unit_price: "8.00", price_rule: "contract" });
  const five = await order(2);
  expect(five.json.items[0]).toMatchObject({ unit_price: "8.00", price_rule: "contract" });
  // 8.00 + 16.00 = 24.00 of a 30.00 line; 5 × 7.00 = 35.00 would pass it.
  expect((await order(5)).json).toMatchObject({ error_code: "insufficient_balance" });
  await portal.goto("/portal");
  await expect(portal.getByTestId("portal-balance")).toHaveText("-24.00");
  await expect(portal.getByTestId("portal-credit")).toHaveText("24.00 of 30.00 used");
});
