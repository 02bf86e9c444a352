import { execFileSync } from "node:child_process";
import { expect, type Page } from "@playwright/test";
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP } from "../lib/protocol/headers";
import { signRequest } from "../lib/protocol/signing";

export const BASE_URL = process.env.E2E_BASE_URL!;
export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL!;
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD!;
export const DEMO_BUYER = "demo-buyer@example.com";

/** Every console page, for the access and screenshot checks. */
export const ADMIN_PAGES = [
  "/admin",
  "/admin/orders",
  "/admin/catalog",
  "/admin/catalog/products",
  "/admin/catalog/products/new",
  "/admin/manual",
  "/admin/review",
  "/admin/claims",
  "/admin/upstream",
  "/admin/jobs",
  "/admin/buyers",
  "/admin/levels",
  "/admin/api-keys",
  "/admin/settings",
  "/admin/audit",
  "/admin/security",
  "/admin/alerts",
  "/admin/top-ups",
  "/admin/password",
];

/**
 * Every console page with a short name for its screenshot: ADMIN_PAGES, then
 * one order, one buyer, one product, and that product's first SKU's card-key
 * and sources pages, when there are some.
 */
export async function consolePages(page: Page): Promise<{ path: string; name: string }[]> {
  const named = (path: string, name?: string) => ({
    path,
    name: name ?? (path.replace(/^\/admin\/?/, "").replace(/\//g, "-") || "dashboard"),
  });
  const pages = ADMIN_PAGES.map((p) => named(p));
  const firstLink = async (at: string, testId: string, selector = "tbody a") => {
    await page.goto(at);
    const link = page.getByTestId(testId).locator(selector).first();
    return (await link.count()) ? (await link.getAttribute("href"))! : undefined;
  };
  const order = await firstLink("/admin/orders", "orders-table");
  if (order) pages.push(named(order, "order-detail"));
  const buyer = await firstLink("/admin/buyers", "buyers-table");
  if (buyer) pages.push(named(buyer, "buyer-detail"));
  const product = await firstLink("/admin/catalog/products", "products-table");
  if (product) {
    pages.push(named(product, "catalog-product-detail"));
    const keys = await firstLink(product, "skus-table", 'tbody a[href^="/admin/catalog/skus/"]:not([href$="/sources"])');
    if (keys) pages.push(named(keys, "catalog-sku-keys"));
    const sources = await firstLink(product, "skus-table", 'tbody a[href$="/sources"]');
    if (sources) pages.push(named(sources, "catalog-sku-sources"));
  }
  return pages;
}

export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await page.goto("/admin/sign-in");
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(password);
  await page.locator('[data-testid="sign-in-form"] button[type=submit]').click();
  await expect(page).toHaveURL(/\/admin$/);
}

/** Adds a Profile P upstream supplier through the console's form; returns its connection id. */
export async function addUpstreamInConsole(
  page: Page,
  { name, baseUrl, apiKey, apiSecret }: { name: string; baseUrl: string; apiKey: string; apiSecret: string },
) {
  await page.goto("/admin/upstream");
  const form = page.getByTestId("add-upstream-form");
  await form.locator("#f-name").fill(name);
  await form.locator("#f-baseUrl").fill(baseUrl);
  await form.locator("#f-profile").selectOption("P");
  await form.locator("#f-apiKey").fill(apiKey);
  await form.locator("#f-apiSecret").fill(apiSecret);
  await form.getByRole("button", { name: "Add a supplier" }).click();
  await expect(form.locator(".msg[role=status]")).toContainText("Supplier added");
  await page.reload();
  const row = page.getByTestId("upstream-table").locator("tbody tr", { hasText: name });
  return (await row.locator("td").first().textContent())!.match(/#(\d+)/)![1];
}

/** The ops CLI against the e2e server's embedded database (joined while it runs). */
export function cli(...args: string[]): unknown {
  const out = execFileSync("npm", ["run", "--silent", "cli", "--", ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

/** The order answer's fields the browser tests read (section 4.5/4.6; U delivers in `fulfillment`). */
export interface OrderAnswer {
  order_id: number;
  order_no: string;
  status: string;
  amount: string;
  error_message?: string | null;
  downstream_order_no?: string;
  delivery_data?: string[];
  fulfillment?: { delivery_data: string[] };
  refunded_amount?: string;
}
/** A product page, its items read as each test declares them. */
export type ProductsAnswer = { items: unknown[] };

let lastTs = 0;
/** A signed supplier API request (section 5), as a downstream system sends it. */
/** `T`: the answer's shape as the test reads it (unknown unless named). */
export async function apiCall<T = unknown>(creds: { apiKey: string; apiSecret: string }, method: string, path: string, body?: unknown) {
  const text = body === undefined ? "" : JSON.stringify(body);
  // Profile P remembers (key, timestamp, signature): use a fresh second per call.
  lastTs = Math.max(Math.floor(Date.now() / 1000), lastTs + 1);
  const headers: Record<string, string> = {
    [HEADER_API_KEY]: creds.apiKey,
    [HEADER_TIMESTAMP]: String(lastTs),
    [HEADER_SIGNATURE]: signRequest({ method, path, timestamp: lastTs, body: text, secret: creds.apiSecret }),
  };
  if (text) headers["Content-Type"] = "application/json";
  const res = await fetch(`${BASE_URL}${path}`, { method, headers, body: text || undefined });
  return { status: res.status, json: (await res.json()) as T };
}

export const BUYER_PASSWORD = "buyer portal password 42";

/** A new buyer, invited, with its portal password chosen and signed in on `page`: its e-mail. */
export async function signedInPortalBuyer(page: Page, tag: string): Promise<string> {
  const email = `${tag}-${Date.now()}@example.com`;
  const invite = cli("user:invite", "--email", email) as { invite_url: string };
  await page.goto(new URL(invite.invite_url).pathname);
  await page.locator("#password").fill(BUYER_PASSWORD);
  await page.locator("#confirm").fill(BUYER_PASSWORD);
  await page.getByTestId("portal-set-password-form").locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/portal\/sign-in\?passwordSet=1$/);
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(BUYER_PASSWORD);
  await page.getByTestId("portal-sign-in-form").locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/portal$/);
  return email;
}

/**
 * A buyer signed in to the portal in `page` (invited with the CLI, password
 * set through the link), with points, an API key made in the portal, and one
 * delivered order placed through the API with it.
 */
export async function portalBuyerWithOrder(page: Page, tag: string) {
  const email = await signedInPortalBuyer(page, tag);
  cli("points:adjust", "--email", email, "--amount", "100.00", "--reason", "e2e opening");
  await page.goto("/portal/keys");
  const create = page.getByTestId("portal-create-key-form");
  await create.locator("input[name=name]").fill("shop");
  await create.locator("button[type=submit]").click();
  const creds = {
    apiKey: (await create.locator('[data-reveal="API key"]').textContent())!,
    apiSecret: (await create.locator('[data-reveal="API secret"]').textContent())!,
  };
  const products = await apiCall<ProductsAnswer>(creds, "GET", "/v1/provider/products?page_size=100");
  type P = { fulfillment_type: string; skus: { id: number; stock_status: string; price_amount: string }[] };
  const sku = (products.json.items as P[])
    .filter((p) => p.fulfillment_type === "auto")
    .flatMap((p) => p.skus)
    .find((s) => s.stock_status === "available" && Number(s.price_amount) <= 50)!;
  const order = await apiCall<OrderAnswer>(creds, "POST", "/v1/provider/orders", {
    downstream_order_no: `E2E-${tag}-${Date.now()}`,
    sku_id: sku.id,
    quantity: 1,
  });
  expect(order.status).toBe(200);
  return { email, creds, skuId: sku.id, orderId: order.json.order_id, orderNo: order.json.order_no };
}
