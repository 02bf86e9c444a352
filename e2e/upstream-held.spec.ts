import { expect, test, type Page } from "@playwright/test";
import { startStubUpstream, type StubUpstream } from "../lib/testing/stub-upstream";
import { addUpstreamInConsole, signIn } from "./helpers";

// Issue 22.1 in the console: an upstream lists a product at 0.00. The import
// holds it (not sold) and says why; the administrator accepts it on the held
// product's button, and it sells again.

test.describe.configure({ mode: "serial" });

const lang = (en: string) => ({ "zh-CN": en, en });
const items = [
  {
    id: 1,
    slug: "free1",
    title: lang("Free stub product"),
    price_amount: "0.00",
    is_active: true,
    category_id: 1,
    skus: [{ id: 10, sku_code: "F1", spec_values: {}, price_amount: "0.00", stock_quantity: -1, is_active: true }],
  },
];

let page: Page;
let stub: StubUpstream;

test.beforeAll(async ({ browser }) => {
  stub = await startStubUpstream();
  stub.answer = (req) => {
    if (req.path.startsWith("/ping")) return { body: { ok: true, balance: "1.00" } };
    if (req.path.startsWith("/categories"))
      return { body: { ok: true, categories: [{ id: 1, parent_id: 0, slug: "free", name: lang("Free"), sort_order: 0 }] } };
    if (req.path.startsWith("/products")) return { body: { ok: true, items, total: items.length, page: 1, page_size: 100 } };
    return { status: 404, body: { ok: false, error_code: "not_found", error_message: "no route" } };
  };
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
});

test.afterAll(async () => {
  await page?.close();
  await stub?.close();
});

test("issue 22.1: an upstream price of 0.00 holds the product with its reason; the administrator accepts it in the console", async () => {
  const connectionId = await addUpstreamInConsole(page, {
    name: "Free stub (e2e)",
    baseUrl: stub.origin,
    apiKey: "stub-key",
    apiSecret: "stub-secret",
  });

  const imp = page.getByTestId(`import-${connectionId}`);
  await imp.getByRole("button", { name: "Import catalogue" }).click();
  await expect(imp.locator(".msg[role=status]")).toContainText(
    "Held 1 product(s) for their price: upstream product 1 (price_amount: 0.00)",
    {
      timeout: 30_000,
    },
  );

  await page.reload();
  const held = page.locator('[data-testid^="held-"]', { hasText: "Free stub product" });
  await expect(held).toContainText("price_amount: 0.00");
  await held.getByRole("button", { name: "Accept the price and sell" }).click();
  // Accepted: the product leaves the held list (the page is revalidated), and stays gone.
  await expect(held).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-testid^="held-"]', { hasText: "Free stub product" })).toHaveCount(0);
});
