import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium } from "@playwright/test";
import { db } from "@/lib/db/client";
import { ensureFirstAdmin } from "@/lib/seed/ensure-first-admin";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { useTestDatabase } from "@/lib/testing/test-database";
import { send, signIn } from "@/lib/testing/sign-in-client";

// Issue 22.8: the first administrator's password, when start generated it
// (and printed it), must be replaced at the first sign-in: until then the
// console shows only the password page.

const SLOW_MACHINE_MS = 300_000;
let server: AppServer;

beforeAll(async () => {
  server = await startAppServer(await useTestDatabase());
}, SLOW_MACHINE_MS);
afterAll(async () => server?.stop());

describe("issue 22.8: a generated first password", { timeout: SLOW_MACHINE_MS }, () => {
  it("issue 22.8: the console shows only the password page until the generated password is changed", async () => {
    delete process.env.ADMIN_PASSWORD;
    const first = await ensureFirstAdmin();
    expect(first?.generatedPassword).toBeTruthy();
    const from = "127.0.0.71";
    const session = (await signIn(server.baseUrl, { email: first!.email, password: first!.generatedPassword!, from })).session!;
    expect(session).toBeTruthy();

    // Every other console page, and the orders export, send it to the password page (or refuse).
    for (const path of ["/admin", "/admin/orders", "/admin/settings", "/admin/buyers"]) {
      const res = await send(server.baseUrl, path, { from, cookie: session });
      expect(res.status, path).toBe(307);
      expect(res.location, path).toMatch(/\/admin\/password$/);
    }
    const csv = await send(server.baseUrl, "/admin/orders.csv", { from, cookie: session });
    expect(csv.status).not.toBe(200);
    const page = await send(server.baseUrl, "/admin/password", { from, cookie: session });
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-testid="password-change-required"');
    expect(page.body).toContain('data-testid="password-form"');
    // The navigation offers nothing else.
    expect(page.body).not.toMatch(/href="\/admin\/(orders|settings|buyers|catalog)"/);

    // In a real browser: sign-in lands on the password page, and its form (the one action allowed) replaces the password.
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const tab = await browser.newPage({ baseURL: server.baseUrl, locale: "en-US" });
      await tab.goto("/admin/sign-in");
      await tab.locator("#email").fill(first!.email);
      await tab.locator("#password").fill(first!.generatedPassword!);
      await tab.locator('[data-testid="sign-in-form"] button[type=submit]').click();
      await tab.waitForURL(/\/admin\/password$/);
      const form = tab.getByTestId("password-form");
      await form.locator("#f-current").fill(first!.generatedPassword!);
      await form.locator("#f-next").fill("my own first password");
      await form.locator("#f-confirm").fill("my own first password");
      await form.getByRole("button").click();
      await tab.waitForURL(/\/admin\/sign-in\?passwordChanged=1$/);
    } finally {
      await browser.close();
    }
    expect((await db().adminUser.findUniqueOrThrow({ where: { email: first!.email } })).passwordChangeRequired).toBe(false);
    const after = (await signIn(server.baseUrl, { email: first!.email, password: "my own first password", from })).session!;
    const orders = await send(server.baseUrl, "/admin/orders", { from, cookie: after });
    expect(orders.status).toBe(200);
    expect((await send(server.baseUrl, "/admin/password", { from, cookie: after })).body).not.toContain(
      'data-testid="password-change-required"',
    );
  });
});
