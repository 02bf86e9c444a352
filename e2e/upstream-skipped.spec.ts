import { expect, test, type Page } from "@playwright/test";
import { startStubUpstream, type StubUpstream } from "../lib/testing/stub-upstream";
import { addUpstreamInConsole, signIn } from "./helpers";

// Issue 8.3 in the console: an upstream whose catalogue carries a product
// priced below zero and a malformed one. The import goes on with the rest and
// the console says which products were skipped and why, in our words, never
// the upstream's text.

test.describe.configure({ mode: "serial" });

const EVIL = "EVIL-ECHO";
const lang = (en: string) => ({ "zh-CN": en, en });
const product = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  slug: `neg${id}`,
  title: lang(`Stub product ${id}`),
  price_amount: "3.00",
  is_active: true,
  category_id: 1,
  skus: [{ id: id * 10, sku_code: `N${id}`, spec_values: {}, price_amount: "3.00", stock_quantity: -1, is_active: true }],
  ...over,
});

let page: Page;
let stub: StubUpstream;

test.beforeAll(async ({ browser }) => {
  stub = await startStubUpstream();
  const items = [product(1), product(2, { price_amount: "-100.00", title: lang(EVIL) }), product(3, { title: EVIL })];
  stub.answer = (req) => {
    if (req.path.startsWith("/ping")) return { body: { ok: true, balance: "1.00" } };
    if (req.path.startsWith("/categories"))
      return { body: { ok: true, categories: [{ id: 1, parent_id: 0, slug: "neg", name: lang("Neg"), sort_order: 0 }] } };
    if (req.path.startsWith("/products")) return { body: { ok: true, items, total: items.length, page: 1, page_size: 100 } };
    return { status: 404, body: { ok: false, error_code: "not_found", error_message: EVIL } };
  };
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
});

test.afterAll(async () => {
  await page?.close();
  await stub?.close();
});

test("issue 8.3: the console shows each skipped upstream product with our reason, and imports the rest", async () => {
  const connectionId = await addUpstreamInConsole(page, {
    name: "Hostile stub (e2e)",
    baseUrl: stub.origin,
    apiKey: "stub-key",
    apiSecret: "stub-secret",
  });

  const imp = page.getByTestId(`import-${connectionId}`);
  await imp.getByRole("button", { name: "Import catalogue" }).click();
  const msg = imp.locator(".msg[role=status]");
  await expect(msg).toContainText("products 1/0/0", { timeout: 30_000 });
  await expect(msg).toContainText(
    "Skipped 2 product(s): upstream product 2 (price_amount: priced below zero); upstream product 3 (title: missing or of the wrong type)",
  );
  await expect(msg).not.toContainText(EVIL);
});
