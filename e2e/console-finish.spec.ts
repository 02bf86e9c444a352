import { expect, test, type Browser, type Page } from "@playwright/test";
import { cli, DEMO_BUYER, signIn } from "./helpers";

// Issue 35 (console side): forms that say what is wrong in the page's
// language and keep what was typed, pages that look finished, and honest
// words about mail. Each check in zh-CN and en, at 1366 px and on a phone.

const SIZES = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;
const LOCALES = ["zh-CN", "en"] as const;
type Locale = (typeof LOCALES)[number];

async function consoleIn(browser: Browser, locale: Locale, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: "admin_locale", value: locale, url: `${process.env.E2E_BASE_URL}/admin` }]);
  const page = await context.newPage();
  await signIn(page);
  return page;
}

const WORDS = {
  "zh-CN": {
    mismatch: "再次输入新密码：两次输入的新密码不一致。",
    fix: "请修改标出的字段。",
    legend: /订单（单日最多 \d+ 笔）/,
    noMail: "尚未设置邮件渠道",
  },
  en: {
    mismatch: "New password again: the two new passwords are not the same.",
    fix: "Please correct the highlighted fields.",
    legend: /Orders \(at most \d+ in a day\)/,
    noMail: "No e-mail channel is set up",
  },
} as const;

for (const [sizeName, viewport] of Object.entries(SIZES)) {
  for (const locale of LOCALES) {
    test.describe(`${locale} ${sizeName}`, () => {
      test("issue 35.2: a refused form names the field by its label in the page's language, marks it, and keeps what was typed", async ({
        browser,
      }) => {
        const page = await consoleIn(browser, locale, viewport);
        await page.goto("/admin/password");
        const form = page.getByTestId("password-form");
        await form.locator("#f-current").fill("not-checked-first-1");
        await form.locator("#f-next").fill("a-new-password-123");
        await form.locator("#f-confirm").fill("another-password-456");
        await form.locator("button[type=submit]").click();
        const alert = form.locator(".msg[role=alert]");
        await expect(alert).toContainText(WORDS[locale].fix);
        await expect(alert).toContainText(WORDS[locale].mismatch);
        await expect(alert).not.toContainText("confirm:");
        await expect(form.locator("#f-confirm")).toHaveAttribute("aria-invalid", "true");
        await expect(form.locator("#f-next")).not.toHaveAttribute("aria-invalid", "true");
        // What was typed is still there, to be corrected rather than typed again.
        await expect(form.locator("#f-current")).toHaveValue("not-checked-first-1");
        await expect(form.locator("#f-next")).toHaveValue("a-new-password-123");
        await expect(form.locator("#f-confirm")).toHaveValue("another-password-456");
        await page.context().close();
      });

      test("issue 35.2, 35.3: the dashboard legend is a sentence; the signed-in address wraps only between its parts", async ({
        browser,
      }) => {
        const page = await consoleIn(browser, locale, viewport);
        await page.goto("/admin");
        const legend = page.getByTestId("day-chart").locator(".chart-legend");
        await expect(legend).toContainText(WORDS[locale].legend);
        await expect(legend).not.toContainText("max");
        // Each part of the address (between "@" and dots) sits on one line: a part split over two lines has two boxes.
        const signedIn = page.getByTestId("signed-in-as");
        if (await signedIn.isVisible()) {
          const parts = signedIn.locator(".email > span");
          expect(await parts.count()).toBeGreaterThan(1);
          // Measured on each part's text alone (its <wbr> is a box of its own).
          const boxes = await parts.evaluateAll((els) =>
            els.map((el) => {
              const range = document.createRange();
              range.selectNodeContents(el.lastChild!);
              return range.getClientRects().length;
            }),
          );
          expect(
            boxes.every((n) => n === 1),
            `parts broken over lines: ${boxes.join(",")}`,
          ).toBe(true);
        }
        await page.context().close();
      });

      test("issue 35.3: the sign-in page fills the window with no white frame and no scrolling when empty", async ({ browser }) => {
        const context = await browser.newContext({ viewport });
        await context.addCookies([{ name: "admin_locale", value: locale, url: `${process.env.E2E_BASE_URL}/admin` }]);
        const page = await context.newPage();
        await page.goto("/admin/sign-in");
        await expect(page.locator("#email")).toBeVisible();
        const layout = await page.evaluate(() => ({
          margin: getComputedStyle(document.body).margin,
          scrollY: document.documentElement.scrollHeight - window.innerHeight,
          scrollX: document.documentElement.scrollWidth - window.innerWidth,
          // The console's grey reaches the window's corner: no white band around it.
          corner: getComputedStyle(document.elementFromPoint(1, 1)!).backgroundColor,
        }));
        expect(layout.margin).toBe("0px");
        expect(layout.scrollY).toBeLessThanOrEqual(0);
        expect(layout.scrollX).toBeLessThanOrEqual(0);
        expect(layout.corner).not.toBe("rgba(0, 0, 0, 0)");
        expect(layout.corner).not.toBe("rgb(255, 255, 255)");
        await context.close();
      });

      test("issue 35.3: the alert channel form shows only the fields of the chosen kind", async ({ browser }) => {
        const page = await consoleIn(browser, locale, viewport);
        await page.goto("/admin/alerts");
        const form = page.getByTestId("add-channel-form");
        const visible = async (ids: string[]) => {
          for (const id of ids) await expect(form.locator(`#f-${id}`)).toBeVisible();
        };
        const hidden = async (ids: string[]) => {
          for (const id of ids) await expect(form.locator(`#f-${id}`)).toBeHidden();
        };
        await form.locator("#f-kind").selectOption("telegram");
        await visible(["name", "botToken", "chatId", "apiBase"]);
        await hidden(["smtpHost", "smtpPort", "smtpSecurity", "smtpUser", "smtpPassword", "smtpUrl", "from", "to", "url"]);
        await form.locator("#f-kind").selectOption("email");
        await visible(["name", "smtpHost", "smtpPort", "smtpSecurity", "smtpUser", "smtpPassword", "smtpUrl", "from", "to"]);
        await hidden(["botToken", "chatId", "apiBase", "url"]);
        await form.locator("#f-kind").selectOption("webhook");
        await visible(["name", "url"]);
        await hidden(["botToken", "chatId", "apiBase", "smtpHost", "from", "to"]);
        // The kinds and the site-wide thresholds are named in words.
        await expect(form.locator("#f-kind option[value=email]")).not.toHaveText("email");
        const thresholds = page.getByTestId("thresholds-form");
        await expect(thresholds).not.toContainText("stock_low");
        await expect(thresholds).not.toContainText("sku:threshold");
        await page.context().close();
      });

      test("issue 35.4: with no e-mail channel, the buyers and settings pages tell the operator that no mail can be sent", async ({
        browser,
      }) => {
        // A whole-suite run may have added an e-mail channel before (alerts.spec.ts): then there must be no warning.
        const { channels } = cli("alerts:channel:list") as { channels: { kind: string }[] };
        const canMail = channels.some((c) => c.kind === "email");
        const page = await consoleIn(browser, locale, viewport);
        for (const path of ["/admin/buyers", "/admin/settings"]) {
          await page.goto(path);
          if (canMail) await expect(page.getByTestId("no-mail-banner")).toHaveCount(0);
          else await expect(page.getByTestId("no-mail-banner")).toContainText(WORDS[locale].noMail);
        }
        await page.context().close();
      });
    });
  }
}

test("issue 35.3: at 1366 px the Disable action of an API key is in sight without scrolling", async ({ browser }) => {
  cli("apikey:create", "--email", DEMO_BUYER, "--name", "a key with a rather long name to widen the row");
  const page = await consoleIn(browser, "en", SIZES.desktop);
  await page.goto("/admin/api-keys");
  const button = page.getByTestId("api-keys-table").getByRole("button", { name: "Disable" }).first();
  await expect(button).toBeVisible();
  const inSight = await button.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const wrap = el.closest(".table-wrap")!.getBoundingClientRect();
    return box.right <= Math.min(wrap.right, window.innerWidth) && box.left >= wrap.left;
  });
  expect(inSight).toBe(true);
  await page.context().close();
});

test("issue 35.3: the front page leads to the console and the portal, and the site has an icon", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.getByTestId("front-door").locator('a[href="/admin"]')).toBeVisible();
  await expect(page.getByTestId("front-door").locator('a[href="/portal"]')).toBeVisible();
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  const res = await request.get(icon!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/");
});
