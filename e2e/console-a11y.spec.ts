import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations, seriousAxeViolations } from "./axe";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiCall,
  BASE_URL,
  cli,
  DEMO_BUYER,
  signedInPortalBuyer,
  type OrderAnswer,
  type ProductsAnswer,
} from "./helpers";

// Issue 24.4: axe-core on every console page, signed in, in both languages at
// desktop size and in English on a phone: no serious or critical violation
// (colour contrast included). The pages are read from app/admin itself, so a
// new page is checked without editing this list; a new dynamic page fails
// until it gets a row in DYNAMIC saying which instance to open.

/** Every page.tsx under app/admin as its route pattern ("/admin/orders/[orderNo]"). */
function consoleRoutes(dir = "app/admin"): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      if (e.isDirectory()) return consoleRoutes(path.join(dir, e.name));
      if (e.name !== "page.tsx") return [];
      // Route groups such as "(console)" are not part of the URL.
      return [
        "/" +
          dir
            .split(path.sep)
            .filter((s) => !/^\(.*\)$/.test(s))
            .join("/")
            .replace(/^app\//, ""),
      ];
    })
    .sort();
}

/** How to reach one instance of each dynamic page: the first link of the list that leads to it. */
const DYNAMIC: Record<string, (page: Page) => Promise<string>> = {
  "/admin/orders/[orderNo]": (page) => firstLink(page, "/admin/orders", "orders-table", "tbody a"),
  "/admin/buyers/[id]": (page) => firstLink(page, "/admin/buyers", "buyers-table", "tbody a"),
  "/admin/catalog/products/[id]": (page) => firstLink(page, "/admin/catalog/products", "products-table", "tbody a"),
  "/admin/catalog/skus/[id]": async (page) => {
    const product = await firstLink(page, "/admin/catalog/products", "products-table", "tbody a");
    return firstLink(page, product, "skus-table", 'tbody a[href^="/admin/catalog/skus/"]');
  },
  "/admin/catalog/skus/[id]/sources": async (page) => {
    const product = await firstLink(page, "/admin/catalog/products", "products-table", "tbody a");
    return (await firstLink(page, product, "skus-table", 'tbody a[href^="/admin/catalog/skus/"]')) + "/sources";
  },
  "/admin/payments/[paymentNo]": async (page) => {
    await paymentThatFailed(page);
    return firstLink(page, "/admin/payments", "payments-table", "tbody a");
  },
};

/** Issue 36: a payment a buyer started at a gateway that did not answer (it stays listed, failed). */
async function paymentThatFailed(page: Page): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "a11y-pay-"));
  fs.writeFileSync(path.join(dir, "key"), "a11y-token");
  const channel = cli(
    ...["payments:channel:add", "--driver", "epusdt", "--name", `a11y-${Date.now()}`, "--gateway-url", "http://127.0.0.1:9"],
    ...["--key-file", path.join(dir, "key")],
  ) as { id: number };
  fs.rmSync(dir, { recursive: true, force: true });
  const buyer = await page.context().browser()!.newContext();
  const buyerPage = await buyer.newPage();
  await signedInPortalBuyer(buyerPage, "a11y-payer");
  const res = await buyerPage.request.post("/portal/api/payments", {
    data: { channel_id: channel.id, amount: "1.00" },
    headers: { origin: BASE_URL },
  });
  expect(res.status()).toBe(502);
  await buyer.close();
}

async function firstLink(page: Page, listPath: string, testId: string, selector: string): Promise<string> {
  await page.goto(listPath);
  const link = page.getByTestId(testId).locator(selector).first();
  await expect(link, `a link on ${listPath} (${testId} ${selector})`).toBeVisible();
  return (await link.getAttribute("href"))!;
}

test.describe.configure({ mode: "serial" });

/** The signed-in session every view reuses: one sign-in (scrypt is slow on a loaded machine), not one per view. */
let session: Awaited<ReturnType<BrowserContext["storageState"]>>;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const signInPage = await browser.newPage();
  await signInPage.goto("/admin/sign-in");
  await signInPage.locator("#email").fill(ADMIN_EMAIL);
  await signInPage.locator("#password").fill(ADMIN_PASSWORD);
  await signInPage.locator('[data-testid="sign-in-form"] button[type=submit]').click();
  await expect(signInPage).toHaveURL(/\/admin$/, { timeout: 60_000 });
  session = await signInPage.context().storageState();
  await signInPage.close();

  // Rows in every table the console has: an order, an upstream supplier (this
  // same shop over Profile P, so its ping answers), API keys.
  const key = cli("apikey:create", "--email", DEMO_BUYER, "--name", "e2e a11y") as { api_key: string; api_secret: string };
  cli("fulfiller:create", "--name", `a11y-${Date.now()}`); // issue 39: a row on the Fulfillers page
  const creds = { apiKey: key.api_key, apiSecret: key.api_secret };
  const products = await apiCall<ProductsAnswer>(creds, "GET", "/v1/provider/products?page_size=100");
  const auto = (products.json.items as { fulfillment_type: string; skus: { id: number; stock?: number }[] }[]).find(
    (p) => p.fulfillment_type === "auto",
  )!;
  const order = await apiCall<OrderAnswer>(creds, "POST", "/v1/provider/orders", {
    downstream_order_no: `A11Y-${Date.now()}`,
    sku_id: auto.skus[0].id,
    quantity: 1,
  });
  expect(order.status, JSON.stringify(order.json)).toBe(200);
  cli(
    "upstream:add",
    "--name",
    "a11y self",
    "--base-url",
    BASE_URL,
    "--profile",
    "P",
    "--api-key",
    creds.apiKey,
    "--api-secret",
    creds.apiSecret,
  );
});

test("issue 24.4: the sign-in page has no serious or critical axe violation", async ({ page }) => {
  await page.goto("/admin/sign-in");
  await expectNoSeriousAxeViolations(page, "/admin/sign-in");
});

const VIEWS = [
  { name: "desktop en", viewport: { width: 1366, height: 900 }, locale: "en" },
  { name: "desktop zh-CN", viewport: { width: 1366, height: 900 }, locale: "zh-CN" },
  { name: "phone en", viewport: { width: 390, height: 844 }, locale: "en" },
] as const;

for (const view of VIEWS) {
  test(`issue 24.4: every console page, signed in (${view.name}), has no serious or critical axe violation`, async ({ browser }) => {
    test.setTimeout(300_000);
    const context = await browser.newContext({ viewport: view.viewport, storageState: session });
    await context.addCookies([{ name: "admin_locale", value: view.locale, url: `${BASE_URL}/admin` }]);
    const page = await context.newPage();
    const routes = consoleRoutes().filter((r) => r !== "/admin/sign-in");
    expect(routes.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const route of routes) {
      const resolve = DYNAMIC[route];
      if (route.includes("[")) expect(resolve, `${route}: add a row to DYNAMIC`).toBeDefined();
      const url = resolve ? await resolve(page) : route;
      await page.goto(url);
      await expect(page.locator(".admin-main")).toBeVisible();
      // Every page checked even when one fails, so one run lists them all.
      failures.push(...(await seriousAxeViolations(page, `${url} (${view.name})`)));
    }
    expect(failures, failures.join("\n\n")).toEqual([]);
    await context.close();
  });
}
