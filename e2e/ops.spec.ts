import { expect, test } from "@playwright/test";
import { apiCall, cli, DEMO_BUYER, signIn } from "./helpers";

// Issue 5: rotating an API key (new secret shown once, the old key refused
// from then on), the dashboard chart and lists, the callbacks/jobs page.

test("rotates an API key: the new one works, the old one is refused, the secret is shown once", async ({ page }) => {
  const old = cli("apikey:create", "--email", DEMO_BUYER, "--name", "to rotate") as { api_key: string; api_secret: string };
  expect((await apiCall({ apiKey: old.api_key, apiSecret: old.api_secret }, "GET", "/v1/provider/ping")).status).toBe(200);
  await signIn(page);
  await page.goto("/admin/api-keys");
  const form = page.getByTestId("rotate-key-form");
  await form.locator("#rotate-apiKey").fill(old.api_key);
  await form.getByRole("button", { name: "Rotate" }).click();
  const reveal = form.getByTestId("reveal");
  await expect(reveal).toBeVisible();
  const fresh = {
    apiKey: (await reveal.locator('[data-reveal="API key"]').textContent())!.trim(),
    apiSecret: (await reveal.locator('[data-reveal="API secret"]').textContent())!.trim(),
  };
  expect(fresh.apiKey).not.toBe(old.api_key);
  expect((await apiCall(fresh, "GET", "/v1/provider/ping")).status).toBe(200);
  expect((await apiCall({ apiKey: old.api_key, apiSecret: old.api_secret }, "GET", "/v1/provider/ping")).status).toBe(401);
  await page.reload();
  expect(await page.content()).not.toContain(fresh.apiSecret);
  await page.goto("/admin/audit");
  await expect(page.getByTestId("audit-table")).toContainText("API key replaced"); // the audit action in words (issue 35.2)
  expect(await page.content()).not.toContain(fresh.apiSecret);
});

test("the dashboard shows the per-day chart and links to the queues; the jobs page lists callbacks and jobs", async ({ page }) => {
  await signIn(page);
  await expect(page.getByTestId("day-chart").locator("svg rect")).toHaveCount(14);
  await expect(page.getByTestId("low-stock-table")).toBeVisible();
  await page.getByRole("link", { name: "Waiting for review" }).click();
  await expect(page).toHaveURL(/\/admin\/review$/);
  await page.goto("/admin/jobs");
  await expect(page.getByTestId("callbacks-table")).toBeVisible();
  await expect(page.getByTestId("jobs-table")).toBeVisible();
});
