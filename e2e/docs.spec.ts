import { expect, test } from "@playwright/test";
import { BASE_URL, signIn } from "./helpers";

// Issue 11.2: the API reference at /docs lists every endpoint of the OpenAPI
// document, reaches the guide's key sections, and loads nothing from any
// other host.

test("the reference page lists every endpoint and no request leaves the server", async ({ page, request }) => {
  const own = new URL(BASE_URL).host;
  const foreign: string[] = [];
  const seen: string[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    seen.push(u.pathname);
    if (u.protocol !== "data:" && u.host !== own) foreign.push(r.url());
  });
  const doc = (await (await request.get("/api/docs/openapi.json")).json()) as {
    paths: Record<string, Record<string, unknown>>;
    webhooks?: Record<string, unknown>;
  };
  const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => ({ path, method })));
  // Under four prefixes: section 4 (eight operations: ping is GET and POST), the balance statement and after-sales
  // (POST and GET, issue 26.3); the catalogue webhook's three methods under the two U prefixes; the
  // fulfiller API's four (issue 39) and its order.waiting push.
  expect(ops).toHaveLength(4 * 11 + 2 * 3 + 4);
  const webhooks = Object.keys(doc.webhooks ?? {});
  expect(webhooks.sort()).toEqual(["catalogUpdated", "fulfillerOrderWaiting", "orderUpdated"]);

  await page.goto("/docs");
  await expect(page.locator("body[data-reference-ready=true]")).toBeAttached({ timeout: 30_000 });
  // Every operation of the document, plus its webhooks.
  await expect(page.locator('.opblock-summary-path[data-path^="/"]')).toHaveCount(ops.length);
  await expect(page.locator(".opblock")).toHaveCount(ops.length + webhooks.length);
  for (const { path, method } of ops) {
    await expect(page.locator(`.opblock-${method} .opblock-summary-path[data-path="${path}"]`), `${method} ${path}`).toHaveCount(1);
  }
  for (const id of ["signing", "idempotency", "polling-profile-p", "callbacks-profile-u"]) {
    await expect(page.locator(`#guide-links a[href="#${id}"]`)).toHaveCount(1);
    await expect(page.locator(`#swagger-ui h2#${id}`)).toHaveCount(1);
  }
  await page.locator(`#guide-links a[href="#signing"]`).click();
  await expect(page.locator("#swagger-ui h2#signing")).toBeInViewport();
  await page.waitForLoadState("networkidle");
  // The listener saw the page's own loads, and nothing else.
  expect(seen).toEqual(
    expect.arrayContaining(["/docs", "/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css", "/api/docs/openapi.json"]),
  );
  expect(foreign).toEqual([]);
});

test("the admin console links to the reference page", async ({ page }) => {
  await signIn(page);
  await page.getByTestId("api-reference-link").first().click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.locator("body[data-reference-ready=true]")).toBeAttached({ timeout: 30_000 });
});
