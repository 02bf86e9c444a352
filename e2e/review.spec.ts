import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { apiCall, BASE_URL, cli, DEMO_BUYER, signIn, type OrderAnswer, type ProductsAnswer } from "./helpers";

// Issue 5, review queue and upstream suppliers, end to end. The e2e shop is
// made an upstream supplier of itself (added and imported on the Upstream
// page), so an order of the imported copy of the manual demo product buys the
// original over the protocol. Nobody delivers the original in time: after the
// connection's short max wait (D25) our order is in unknown_review. One is
// resolved by delivering the upstream order and "check the upstream again",
// the other is failed and refunded. A job worker runs for this file only (the
// e2e server runs without one). Then the CSV export: the order is in it, the
// form values are not.

test.describe.configure({ mode: "serial" });

let page: Page;
let worker: ChildProcess | undefined;
let creds: { apiKey: string; apiSecret: string };
const PHONE = "13912345678";
const MAX_WAIT_SECONDS = 4;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const key = cli("apikey:create", "--email", DEMO_BUYER, "--name", "e2e upstream") as { api_key: string; api_secret: string };
  creds = { apiKey: key.api_key, apiSecret: key.api_secret };
  // Its own process group, so afterAll ends exactly this worker and its children.
  worker = spawn("npm", ["run", "--silent", "worker"], {
    env: {
      ...process.env,
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: "info",
      UPSTREAM_POLL_SCHEDULE: "0.5",
      WORKER_POLL_INTERVAL_MS: "200",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the job worker did not start")), 90_000);
    worker!.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes("worker process running")) {
        clearTimeout(timer);
        resolve();
      }
    });
    worker!.on("exit", (code) => reject(new Error(`the job worker exited (${code})`)));
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
});

test.afterAll(async () => {
  await page?.close();
  if (worker?.pid && worker.exitCode === null) process.kill(-worker.pid, "SIGTERM");
});

let connectionId: string;

test("adds an upstream supplier (pinged first, secret never shown again), tests it and imports its catalogue with a markup", async () => {
  await page.goto("/admin/upstream");
  const form = page.getByTestId("add-upstream-form");
  await form.locator("#f-name").fill("Self (e2e)");
  await form.locator("#f-baseUrl").fill(BASE_URL);
  await form.locator("#f-profile").selectOption("P");
  await form.locator("#f-apiKey").fill(creds.apiKey);
  await form.locator("#f-apiSecret").fill(creds.apiSecret);
  await form.locator("#f-maxWaitSeconds").fill(String(MAX_WAIT_SECONDS));
  await form.getByRole("button", { name: "Add a supplier" }).click();
  await expect(form.locator(".msg[role=status]")).toContainText("Supplier added");
  await page.reload();
  const table = page.getByTestId("upstream-table");
  await expect(table).toContainText("Self (e2e)");
  await expect(table).toContainText(creds.apiKey);
  expect(await page.content()).not.toContain(creds.apiSecret);
  const row = table.locator("tbody tr", { hasText: "Self (e2e)" });
  connectionId = (await row.locator("td").first().textContent())!.match(/#(\d+)/)![1];

  const ping = page.getByTestId(`ping-${connectionId}`);
  await ping.getByRole("button", { name: "Test connection" }).click();
  await expect(ping.locator(".msg[role=status]")).toContainText("The supplier answered");

  // Disable and enable again (audited); purchases below need it enabled.
  for (const [button, state] of [
    ["Disable", "Disabled"],
    ["Enable", "Enabled"],
  ] as const) {
    await page.getByTestId(`toggle-${connectionId}`).getByRole("button", { name: button }).click();
    await expect(table.locator("tbody tr", { hasText: "Self (e2e)" })).toContainText(state);
  }

  const imp = page.getByTestId(`import-${connectionId}`);
  await imp.locator("input[name=markupPercent]").fill("10");
  await imp.getByRole("button", { name: "Import catalogue" }).click();
  await expect(imp.locator(".msg[role=status]")).toContainText("Imported.", { timeout: 30_000 });

  await page.goto("/admin/audit");
  await expect(page.getByTestId("audit-table")).toContainText("Upstream catalogue imported"); // audit actions in words (issue 35.2)
  await expect(page.getByTestId("audit-table")).toContainText("Upstream supplier checked");
  await expect(page.getByTestId("audit-table")).toContainText("Upstream supplier turned off");
});

const reviewOrders: { orderNo: string; orderId: number }[] = [];

test("orders of the imported product go to the review queue when the upstream gives no final answer in time", async () => {
  type P = { id: number; title: unknown; fulfillment_type: string; skus: { id: number; price: string }[] };
  const topUpsNow = async () =>
    ((await apiCall<ProductsAnswer>(creds, "GET", "/v1/provider/products?page_size=100")).json.items as P[]).filter((p) =>
      JSON.stringify(p.title).includes("Mobile top-up (demo)"),
    );
  // The API's catalogue snapshot is refreshed at most once a second.
  await expect.poll(async () => (await topUpsNow()).length, { timeout: 10_000 }).toBe(2);
  const topUps = await topUpsNow();
  const original = topUps.find((p) => p.fulfillment_type === "manual")!;
  const copy = topUps.find((p) => p.id !== original.id)!;
  expect(copy, JSON.stringify(topUps)).toBeTruthy();
  for (let i = 0; i < 2; i++) {
    const created = await apiCall<OrderAnswer>(creds, "POST", "/v1/provider/orders", {
      downstream_order_no: `E2E-REVIEW-${Date.now()}-${i}`,
      sku_id: copy.skus[0].id,
      quantity: 1,
      manual_form_data: { phone: PHONE, carrier: "China Mobile" },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    reviewOrders.push({ orderNo: created.json.order_no, orderId: created.json.order_id });
  }
  await expect
    .poll(
      async () => {
        await page.goto("/admin/review");
        return page.locator(`[data-testid^="review-"]`).count();
      },
      { timeout: 40_000, intervals: [1000] },
    )
    .toBeGreaterThanOrEqual(2);
  const [a] = reviewOrders;
  const purchase = page.getByTestId(`purchase-${a.orderNo}`);
  await expect(purchase).toContainText("Self (e2e)");
  await expect(purchase).toContainText(/Attempts\d+/);
  // The form is listed by field name only.
  expect(await page.content()).not.toContain(PHONE);
  // Publicly the order is still processing.
  const pub = await apiCall<OrderAnswer>(creds, "GET", `/v1/provider/orders/${a.orderId}`);
  expect(pub.json.status).toBe("processing");
});

test("resolves one by delivering upstream and checking the upstream again; fails the other with a refund", async () => {
  const [a, b] = reviewOrders;
  const upstreamOrderId = Number((await page.getByTestId(`purchase-${a.orderNo}`).locator("dd").nth(2).textContent())!.trim());
  expect(upstreamOrderId).toBeGreaterThan(0);
  const upstreamOrder = await apiCall<OrderAnswer>(creds, "GET", `/v1/provider/orders/${upstreamOrderId}`);
  expect(upstreamOrder.json.downstream_order_no).toBe(a.orderNo);

  // The supplier (this same shop) delivers its order by hand.
  await page.goto("/admin/manual");
  const deliver = page.getByTestId(`deliver-${upstreamOrder.json.order_no}`);
  await deliver.locator("textarea").fill("TOPUP-UPSTREAM-RECEIPT-42");
  await deliver.getByRole("button", { name: "Deliver" }).click();
  await expect(page.getByTestId(`queue-${upstreamOrder.json.order_no}`)).toHaveCount(0);

  await page.goto("/admin/review");
  const recheck = page.getByTestId(`recheck-${a.orderNo}`);
  await recheck.getByRole("button", { name: "Check the upstream again" }).click();
  await expect(recheck.locator(".msg[role=status]")).toContainText("Check queued");
  await expect
    .poll(async () => (await apiCall<OrderAnswer>(creds, "GET", `/v1/provider/orders/${a.orderId}`)).json.status, {
      timeout: 20_000,
      intervals: [500],
    })
    .toBe("delivered");
  const delivered = await apiCall<OrderAnswer>(creds, "GET", `/v1/provider/orders/${a.orderId}`);
  expect(JSON.stringify(delivered.json)).toContain("TOPUP-UPSTREAM-RECEIPT-42");
  await page.goto("/admin/review");
  await expect(page.getByTestId(`review-${a.orderNo}`)).toHaveCount(0);

  const fail = page.getByTestId(`fail-${b.orderNo}`);
  await fail.locator("input[name=reason]").fill("supplier could not confirm");
  await fail.getByRole("button", { name: "Fail and refund" }).click();
  await expect(page.getByTestId(`review-${b.orderNo}`)).toHaveCount(0);
  const failed = await apiCall<OrderAnswer>(creds, "GET", `/v1/provider/orders/${b.orderId}`);
  expect(failed.json.status).toBe("failed");
  expect(failed.json.error_message).toBe("supplier could not confirm");

  await page.goto("/admin/audit");
  await expect(page.getByTestId("audit-table")).toContainText("Upstream order checked again"); // audit actions in words (issue 35.2)
  await expect(page.getByTestId("audit-table")).toContainText("Order failed and refunded");
});

test("the CSV export lists the order with its form fields masked; signed out it is refused", async ({ browser }) => {
  const [a] = reviewOrders;
  await page.goto(`/admin/orders?q=${encodeURIComponent(a.orderNo)}&profile=P`);
  await expect(page.getByTestId("orders-table")).toContainText(a.orderNo);
  const href = (await page.getByTestId("orders-csv").getAttribute("href"))!;
  expect(href).toContain(`q=${encodeURIComponent(a.orderNo)}`);
  const res = await page.request.get(href);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/csv");
  const text = await res.text();
  expect(text).toContain(a.orderNo);
  expect(text).toContain("phone=***");
  expect(text).not.toContain(PHONE);
  expect(text).not.toContain("China Mobile");
  expect(text).not.toContain(creds.apiSecret);
  expect(text).not.toContain("TOPUP-UPSTREAM-RECEIPT-42");

  const anonymous = await browser.newContext();
  const refused = await anonymous.request.get(`/admin/orders.csv?q=${encodeURIComponent(a.orderNo)}`, { maxRedirects: 0 });
  expect(refused.status()).toBe(302);
  expect(refused.headers().location).toContain("/admin/sign-in");
  await anonymous.close();
});
