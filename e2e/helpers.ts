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
];

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
