import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { ADMIN_PAGES, signIn } from "./helpers";

// Every console page in both languages at desktop and phone size, saved
// under e2e/screenshots/ (gitignored). Each must not overflow sideways.

const SIZES = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;
const LOCALES = ["en", "zh-CN"] as const;
const OUT = "e2e/screenshots";

test("every admin page renders in both languages on desktop and phone without overflowing", async ({ browser }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  for (const [sizeName, viewport] of Object.entries(SIZES)) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page);
    for (const locale of LOCALES) {
      await context.addCookies([{ name: "admin_locale", value: locale, url: `${process.env.E2E_BASE_URL}/admin` }]);
      const pages = [...ADMIN_PAGES];
      // An order page and a buyer page, when there are some.
      await page.goto("/admin/orders");
      const orderLink = page.getByTestId("orders-table").locator("tbody a").first();
      if (await orderLink.count()) pages.push((await orderLink.getAttribute("href"))!);
      await page.goto("/admin/buyers");
      const buyerLink = page.getByTestId("buyers-table").locator("tbody a").first();
      if (await buyerLink.count()) pages.push((await buyerLink.getAttribute("href"))!);
      // A product page and a SKU's card-key page (the catalogue).
      await page.goto("/admin/catalog/products");
      const productLink = page.getByTestId("products-table").locator("tbody a").first();
      if (await productLink.count()) {
        const href = (await productLink.getAttribute("href"))!;
        pages.push(href);
        await page.goto(href);
        // The SKU's card-key page and its sources page (issue 26.1).
        for (const link of ['tbody a[href^="/admin/catalog/skus/"]:not([href$="/sources"])', 'tbody a[href$="/sources"]']) {
          const found = page.getByTestId("skus-table").locator(link).first();
          if (await found.count()) pages.push((await found.getAttribute("href"))!);
        }
      }
      for (const path of pages) {
        await page.goto(path);
        await expect(page.locator(".admin")).toHaveAttribute("lang", locale);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} ${locale} ${sizeName} overflows by ${overflow}px`).toBeLessThanOrEqual(1);
        const name = path.startsWith("/admin/orders/")
          ? "order-detail"
          : path.startsWith("/admin/buyers/")
            ? "buyer-detail"
            : /^\/admin\/catalog\/products\/\d+$/.test(path)
              ? "catalog-product-detail"
              : /^\/admin\/catalog\/skus\/\d+\/sources$/.test(path)
                ? "catalog-sku-sources"
                : path.startsWith("/admin/catalog/skus/")
                  ? "catalog-sku-keys"
                  : path.replace(/^\/admin\/?/, "").replace(/\//g, "-") || "dashboard";
        await page.screenshot({ path: `${OUT}/${name}.${locale}.${sizeName}.png`, fullPage: true });
      }
    }
    const signInPage = await context.newPage();
    await context.clearCookies();
    for (const locale of LOCALES) {
      await context.addCookies([{ name: "admin_locale", value: locale, url: `${process.env.E2E_BASE_URL}/admin` }]);
      await signInPage.goto("/admin/sign-in");
      await signInPage.screenshot({ path: `${OUT}/sign-in.${locale}.${sizeName}.png`, fullPage: true });
    }
    await context.close();
  }
});
