import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startFakeEpay } from "../lib/testing/fake-gateways/epay";
import { expectNoSeriousAxeViolations } from "./axe";
import { ADMIN_EMAIL, BASE_URL, cli, signIn, signedInPortalBuyer } from "./helpers";

// Issue 36, in a real browser: a buyer tops up through an epay gateway (a
// fake on 127.0.0.1 that speaks the protocol): the portal's Top up page →
// the gateway's own page → Pay → back on the payment's page, which shows it
// paid and the balance credited, once. Then the operator's console shows the
// payment with the notify received.

test("issue 36: portal → gateway page → paid → balance shown; the console shows the payment and its notify", async ({ browser }) => {
  test.setTimeout(180_000);
  const gateway = await startFakeEpay();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-pay-"));
  try {
    const keyFile = path.join(dir, "key");
    fs.writeFileSync(keyFile, gateway.key);
    cli("settings:set", `public_base_url=${BASE_URL}`);
    const channel = cli(
      "payments:channel:add",
      "--driver",
      "epay",
      "--name",
      `e2e-epay-${Date.now()}`,
      "--gateway-url",
      gateway.url,
      "--pid",
      gateway.pid,
      "--key-file",
      keyFile,
    ) as { id: number; notify_url: string };
    expect(channel.notify_url).toBe(`${BASE_URL}/api/payments/notify/${channel.id}`);

    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const email = await signedInPortalBuyer(page, "payer");
    await page.goto("/portal/top-ups");
    await expectNoSeriousAxeViolations(page, "payments 1");
    const form = page.getByTestId("portal-pay-form");
    await form.locator("select[name=channel_id]").selectOption(String(channel.id));
    await form.locator("input[name=amount]").fill("12.34");
    await form.locator("button[type=submit]").click();
    // The gateway's own page.
    await expect(page).toHaveURL(new RegExp(`^${gateway.url}/submit\\.php\\?`));
    await expect(page.locator("#amount")).toHaveText("12.34");
    await page.getByRole("button", { name: "Pay" }).click();
    // Back on our page: paid and credited (the page polls until the notify has landed).
    await expect(page).toHaveURL(/\/portal\/top-ups\/TP\d{8}[0-9A-Z]+$/);
    await expect(page.getByTestId("payment-state")).toHaveAttribute("data-state", "paid", { timeout: 20_000 });
    await expect(page.getByTestId("payment-balance")).toHaveText("12.34");
    await expectNoSeriousAxeViolations(page, "payments 2");
    const paymentNo = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    expect(gateway.notified.filter((n) => n.paymentNo === paymentNo).map((n) => n.body)).toEqual(["success"]);
    // The statement shows it as a top-up with its number.
    await page.goto("/portal/statement");
    await expect(page.getByTestId("portal-statement")).toContainText(paymentNo);
    const listed = cli("payments:list", "--status", "paid") as { items: { payment_no: string; buyer: string; amount: string }[] };
    expect(listed.items.find((p) => p.payment_no === paymentNo)).toMatchObject({ buyer: email, amount: "12.34" });
    expect(cli("points:reconcile")).toMatchObject({ ok: true, payment_mismatches: [] });
    await context.close();

    // The operator's view: the list, the payment with its notify (no signature shown), the channel.
    const adminContext = await browser.newContext({ locale: "en-US" });
    const admin = await adminContext.newPage();
    await signIn(admin, ADMIN_EMAIL);
    await admin.goto(`/admin/payments?q=${paymentNo}`);
    await expect(admin.locator("main")).toContainText(paymentNo);
    await expectNoSeriousAxeViolations(admin, "payments 3");
    await admin.goto(`/admin/payments/${paymentNo}`);
    await expect(admin.locator("main")).toContainText("credited");
    await expect(admin.locator("main")).toContainText("[redacted]");
    await expectNoSeriousAxeViolations(admin, "payments 4");
    await admin.goto("/admin/payments/channels");
    await expect(admin.locator("main")).toContainText(channel.notify_url);
    expect(await admin.content()).not.toContain(gateway.key);
    await expectNoSeriousAxeViolations(admin, "payments 5");
    await adminContext.close();
  } finally {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
