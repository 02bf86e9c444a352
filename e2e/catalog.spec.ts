import { expect, test, type Page } from "@playwright/test";
import { apiCall, cli, DEMO_BUYER, signIn, type ProductsAnswer } from "./helpers";

// Issue 5, catalogue: a category, a product and a SKU made in the console;
// card keys imported with duplicates and malformed lines (counts previewed
// before confirming); the product then appears over the supplier API; one
// key revealed, and the reveal is in the audit log.

test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const catSlug = `e2e-cat-${stamp}`;
const productSlug = `e2e-keys-${stamp}`;
const skuCode = `E2E-SKU-${stamp}`;
let page: Page;
let productUrl = "";

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
});
test.afterAll(async () => page?.close());

test("creates a category in the tree", async () => {
  await page.goto("/admin/catalog");
  const form = page.getByTestId("category-form");
  await form.locator("#f-slug").fill(catSlug);
  await form.locator("#f-name_zh").fill("端到端分类");
  await form.locator("#f-name_en").fill("E2E category");
  await form.locator("#f-sort_order").fill("7");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=status]")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByTestId("category-tree")).toContainText("E2E category");
  // Bad input is refused with a clear message.
  await form.locator("#f-slug").fill("Not A Slug");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=alert]")).toContainText("slug");
});

test("creates a product with a form field and a SKU", async () => {
  await page.goto("/admin/catalog/products/new");
  const form = page.getByTestId("product-form");
  await form.locator("#f-slug").fill(productSlug);
  await form.locator("#f-category_id").selectOption({ label: "E2E category" });
  await form.locator("#f-title_zh").fill("端到端卡密");
  await form.locator("#f-title_en").fill("E2E keys product");
  await form.locator("#f-content_en").fill("# Hello\n**bold** text");
  await form.getByRole("button", { name: "Preview" }).nth(1).click();
  await expect(form.locator("iframe.content-preview")).toBeVisible();
  await form.locator("#f-fulfillment_type").selectOption("auto");
  await form.locator("#f-delivery_format").selectOption("account_password");
  await form.locator("#f-price").fill("3.00");
  // Issue 26.3: the after-sales window per product (default 24 h; 0 = none).
  await expect(form.locator("#f-after_sales_hours")).toHaveValue("24");
  await form.locator("#f-after_sales_hours").fill("72");
  await form.getByRole("button", { name: "Add a field" }).click();
  await form.locator('[data-field="key"]').fill("note");
  await form.locator("button[type=submit]").last().click();
  await expect(page).toHaveURL(/\/admin\/catalog\/products\/\d+$/);
  productUrl = new URL(page.url()).pathname;
  const sku = page.getByTestId("sku-form");
  await sku.locator("#f-sku_code").fill(skuCode);
  await sku.locator("#f-sku_price").fill("2.50");
  await sku.locator("button[type=submit]").click();
  await expect(sku.locator(".msg[role=status]")).toHaveText("SKU saved.");
  await page.reload();
  await expect(page.getByTestId("skus-table")).toContainText(skuCode);
  await expect(page.getByTestId("product-form").locator("#f-after_sales_hours")).toHaveValue("72");
});

test("imports card keys: preview counts new, duplicate and malformed lines before confirming", async () => {
  await page.goto(productUrl);
  await page.getByTestId("skus-table").getByRole("link", { name: "Card keys" }).click();
  await expect(page).toHaveURL(/\/admin\/catalog\/skus\/\d+$/);
  const importForm = page.getByTestId("card-key-import");
  const previewCounts = async () =>
    Object.fromEntries(
      await Promise.all(
        ["lines", "new", "duplicate-existing", "duplicate-upload", "malformed"].map(
          async (k) => [k, Number(await importForm.locator(`[data-count="${k}"]`).textContent())] as const,
        ),
      ),
    );

  await importForm.locator("#card-keys-text").fill(["u1----p1", "u2----p2", "u1----p1", "no-delimiter-here", "u3----"].join("\n"));
  await importForm.getByRole("button", { name: "Preview" }).click();
  await expect(importForm.getByTestId("card-key-preview")).toBeVisible();
  expect(await previewCounts()).toEqual({ lines: 5, new: 2, "duplicate-existing": 0, "duplicate-upload": 1, malformed: 2 });
  await expect(importForm.getByTestId("card-key-preview")).toContainText("Line 4");
  await expect(importForm.getByTestId("card-key-preview")).not.toContainText("no-delimiter-here");
  await importForm.getByRole("button", { name: "Confirm and add 2 key(s)" }).click();
  await expect(importForm.locator(".msg[role=status]")).toContainText("Added 2 key(s)");

  // A second upload (a .csv, first column) repeats a key already in stock.
  await importForm
    .locator("#card-keys-file")
    .setInputFiles({ name: "keys.csv", mimeType: "text/csv", buffer: Buffer.from('u2----p2,old\nu4----p4,new\n"u5----p5",x\n') });
  await importForm.getByRole("button", { name: "Preview" }).click();
  await expect.poll(previewCounts).toEqual({ lines: 3, new: 2, "duplicate-existing": 1, "duplicate-upload": 0, malformed: 0 });
  await importForm.getByRole("button", { name: "Confirm and add 2 key(s)" }).click();
  await expect(importForm.locator(".msg[role=status]")).toContainText("Added 2 key(s)");
  await page.reload();
  await expect(page.locator('[data-count="available"]')).toHaveText("4");
  await expect(page.getByTestId("batches-table").locator("tbody tr")).toHaveCount(2);
  // Keys are listed masked: no key text anywhere on the page.
  const html = await page.content();
  for (const k of ["u1----p1", "u2----p2", "u4----p4", "u5----p5"]) expect(html).not.toContain(k);
});

test("the product appears over the supplier API with its stock", async () => {
  const out = cli("apikey:create", "--email", DEMO_BUYER, "--name", "e2e catalogue") as { api_key: string; api_secret: string };
  const creds = { apiKey: out.api_key, apiSecret: out.api_secret };
  const find = async () => {
    const res = await apiCall<ProductsAnswer>(creds, "GET", "/v1/provider/products?page_size=100");
    expect(res.status).toBe(200);
    return (res.json.items as { title: Record<string, string> | string; skus: { stock_quantity: number }[] }[]).find((p) =>
      JSON.stringify(p.title).includes("E2E keys product"),
    );
  };
  await expect.poll(async () => (await find())?.skus[0]?.stock_quantity ?? -2, { timeout: 5000 }).toBe(4);
});

test("reveals one key at a time, with an audit row", async () => {
  await page.reload();
  const firstReveal = page.getByTestId("keys-table").locator('[data-testid^="reveal-key-"]').first();
  await firstReveal.getByRole("button", { name: "Reveal" }).click();
  const value = (await firstReveal.locator("[data-reveal]").textContent())!.trim();
  expect(value).toMatch(/^u\d----p\d$/);
  await expect(page.getByTestId("keys-table").locator("[data-reveal]")).toHaveCount(1);
  await page.goto("/admin/audit");
  await expect(page.locator("body")).toContainText("Card key shown"); // the audit action in words (issue 35.2)
  expect(await page.content()).not.toContain(value);
});

test("issue 26.1: each SKU row of a product links to its sources panel, a manual product's too (no keys page leads there)", async () => {
  const { sku_id } = cli("sku:sources", "--sku-code", "DEMO-TOPUP-50") as { sku_id: number };
  await page.goto(`/admin/catalog/skus/${sku_id}/sources`);
  await page.getByRole("link", { name: "Back", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/catalog\/products\/\d+$/);
  const row = page.getByTestId("skus-table").locator("tr", { hasText: "DEMO-TOPUP-50" });
  await row.getByRole("link", { name: "Sources", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/catalog/skus/${sku_id}/sources$`));
  await expect(page.getByTestId("sources-table")).toBeVisible();
  await expect(page.getByTestId("source-add-upstream")).toBeVisible();
});

test("keys pasted before the page's script ran still enable Preview (the box is read when the form comes alive)", async () => {
  await page.goto(productUrl);
  const keysUrl = await page.getByTestId("skus-table").getByRole("link", { name: "Card keys" }).getAttribute("href");
  // Hold the page's scripts until the box is filled: what a slow phone, or a busy machine, gives.
  let release: () => void = () => {};
  const released = new Promise<void>((r) => (release = r));
  await page.route("**/_next/static/**/*.js", async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(keysUrl!, { waitUntil: "domcontentloaded" });
  await page.locator("#card-keys-text").fill("early-1----p1");
  release();
  const importForm = page.getByTestId("card-key-import");
  await expect(importForm.getByRole("button", { name: "Preview" })).toBeEnabled();
  await importForm.getByRole("button", { name: "Preview" }).click();
  await expect(importForm.locator('[data-count="new"]')).toHaveText("1");
  await page.unrouteAll();
});
