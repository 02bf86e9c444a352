import { expect, test, type Page } from "@playwright/test";
import { acgClient } from "../lib/testing/acg-client";
import { apiCall, cli, DEMO_BUYER, signIn, type OrderAnswer, type ProductsAnswer } from "./helpers";

// The console end to end against the seeded demo shop: settings change the
// API, an API key made here works over the API, a manual order placed over
// the API shows masked in the table and is delivered from the queue.

test.describe.configure({ mode: "serial" });

let page: Page;
let creds: { apiKey: string; apiSecret: string };

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
});
test.afterAll(async () => page?.close());

test("creates an API key for a buyer, shows the secret once, and the key works over the API", async () => {
  await page.goto("/admin/api-keys");
  const form = page.getByTestId("create-key-form");
  await form.locator("#f-email").fill(DEMO_BUYER);
  await form.locator("#f-name").fill("e2e key");
  await form.getByRole("button", { name: "Create an API key" }).click();
  const reveal = form.getByTestId("reveal");
  await expect(reveal).toBeVisible();
  creds = {
    apiKey: (await reveal.locator('[data-reveal="API key"]').textContent())!.trim(),
    apiSecret: (await reveal.locator('[data-reveal="API secret"]').textContent())!.trim(),
  };
  expect(creds.apiKey).toMatch(/^sk_/);
  const ping = await apiCall(creds, "GET", "/v1/provider/ping");
  expect(ping.status).toBe(200);
  // After a reload the secret is gone for good; the key is listed without it.
  await page.reload();
  await expect(page.getByTestId("api-keys-table")).toContainText(creds.apiKey);
  expect(await page.content()).not.toContain(creds.apiSecret);
});

test("issue 37.2: the console switches ACG-Faka's protocol on for a key, says plainly what it costs, and names app_id and domain", async () => {
  await page.goto("/admin/api-keys");
  await expect(page.getByTestId("acg-warning")).toContainText("no timestamp");
  const form = page.getByTestId("acg-switch-form");
  await form.locator("#acg-apiKey").fill(creds.apiKey);
  await form.locator("#f-acg").check();
  await form.getByRole("button", { name: "Save" }).click();
  const reveal = form.getByTestId("reveal");
  await expect(reveal).toBeVisible();
  const appId = (await reveal.locator('[data-reveal="Merchant ID (app id)"]').textContent())!.trim();
  expect((await reveal.locator('[data-reveal="Domain"]').textContent())!.trim()).toMatch(/\/acg$/);
  // What an ACG-Faka shop then does with those values (this server, over loopback).
  const shop = acgClient(`${process.env.E2E_BASE_URL}/acg`, appId, creds.apiSecret);
  expect((await shop.connect()).shopName).not.toBe("");
});

test("the image exposure switch changes what the API returns", async () => {
  // The demo catalogue has no pictures: import one product that has a logo, images and an image in its content.
  cli("catalog:import", "e2e/fixtures/image-product.json");
  const imagesIn = async () => {
    const res = await apiCall<ProductsAnswer>(creds, "GET", "/v1/provider/products?page_size=100");
    expect(res.status).toBe(200);
    return (res.json.items as { logo?: string; images?: string[] }[]).some((p) => !!p.logo || (p.images ?? []).length > 0);
  };
  // The catalogue is served from a snapshot refreshed within a second (D13, decision 0018).
  await expect.poll(imagesIn, { timeout: 5000 }).toBe(true);
  await page.goto("/admin/settings");
  await expect(page.getByText("Affects the supplier API only")).toBeVisible();
  await page.locator("#f-image_exposure").uncheck();
  await page.locator("#f-site_name").fill("E2E Card Shop");
  await page.locator('[data-testid="settings-form"] button[type=submit]').click();
  await expect(page.getByTestId("settings-form").locator(".msg[role=status]")).toHaveText("Saved.");
  await expect.poll(imagesIn, { timeout: 5000 }).toBe(false);
  await page.reload();
  await expect(page.locator("#f-site_name")).toHaveValue("E2E Card Shop");
  await expect(page.locator("#f-image_exposure")).not.toBeChecked();
  // Bad input is refused and nothing is written.
  await page.locator("#f-public_base_url").fill("ftp://example.com");
  await page.locator('[data-testid="settings-form"] button[type=submit]').click();
  // Named by its label, said in words (issue 35.2).
  await expect(page.locator(".msg[role=alert]")).toContainText("Public base URL: must be an http or https address");
  await page.locator("#f-image_exposure").check();
  await page.locator("#f-public_base_url").fill("http://localhost:3000");
  await page.locator('[data-testid="settings-form"] button[type=submit]').click();
  await expect(page.getByTestId("settings-form").locator(".msg[role=status]")).toHaveText("Saved.");
});

test("a manual order placed over the API is listed with its form masked and delivered from the queue", async () => {
  const products = await apiCall<ProductsAnswer>(creds, "GET", "/v1/provider/products?page_size=100");
  const manual = (products.json.items as { fulfillment_type: string; skus: { id: number }[] }[]).find(
    (p) => p.fulfillment_type === "manual",
  )!;
  const downstream = `E2E-${Date.now()}`;
  const phone = "13800138000";
  const created = await apiCall<OrderAnswer>(creds, "POST", "/v1/provider/orders", {
    downstream_order_no: downstream,
    sku_id: manual.skus[0].id,
    quantity: 1,
    manual_form_data: { phone, carrier: "China Mobile" },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  const orderNo: string = created.json.order_no;
  expect(orderNo).toBeTruthy();

  await page.goto(`/admin/orders?q=${encodeURIComponent(downstream)}`);
  const table = page.getByTestId("orders-table");
  await expect(table).toContainText(orderNo);
  await expect(table).toContainText("Processing");
  await table.getByRole("link", { name: orderNo }).click();
  await expect(page.getByTestId("form-data")).toContainText("phone");
  expect(await page.content()).not.toContain(phone);
  // An audited reveal shows the value.
  await page.getByTestId("reveal-phone").getByRole("button", { name: "Reveal" }).click();
  await expect(page.getByTestId("reveal-phone").getByTestId("reveal")).toContainText(phone);

  await page.goto("/admin/manual");
  const deliver = page.getByTestId(`deliver-${orderNo}`);
  await deliver.locator("textarea").fill("TOPUP-RECEIPT-0001");
  await deliver.getByRole("button", { name: "Deliver" }).click();
  // Delivered orders leave the queue (the page re-renders without it).
  await expect(page.getByTestId(`queue-${orderNo}`)).toHaveCount(0);

  const after = await apiCall<OrderAnswer>(creds, "GET", `/v1/provider/orders/${created.json.order_id}`);
  expect(after.status, JSON.stringify([created.json, after.json])).toBe(200);
  expect(after.json.status).toBe("delivered");

  await page.goto("/admin/audit");
  await expect(page.getByTestId("audit-table")).toContainText("Order delivered by hand"); // audit actions in words (issue 35.2)
  await expect(page.getByTestId("audit-table")).toContainText("Order form field shown");
  expect(await page.content()).not.toContain("TOPUP-RECEIPT-0001");
  expect(await page.content()).not.toContain(phone);
});

test("adjusts a buyer's points with a reason and shows the ledger row", async () => {
  await page.goto(`/admin/buyers?q=${encodeURIComponent(DEMO_BUYER)}`);
  await page.getByTestId("buyers-table").getByRole("link", { name: DEMO_BUYER }).click();
  const before = (await page.getByTestId("buyer-balance").textContent())!;
  const form = page.getByTestId("adjust-points-form");
  await form.locator("#f-amount").fill("-12.50");
  await form.locator("#f-reason").fill("e2e goodwill correction");
  await form.getByRole("button", { name: "Adjust points" }).click();
  await expect(form.locator(".msg[role=status]")).toContainText("New balance");
  await page.reload();
  const expected = (Math.round(Number(before) * 100) - 1250) / 100;
  await expect(page.getByTestId("buyer-balance")).toHaveText(expected.toFixed(2));
  await expect(page.getByTestId("ledger-table")).toContainText("admin: e2e goodwill correction");
});
