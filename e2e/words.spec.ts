import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { ALERT_KIND_NAMES } from "../lib/alerts/event-kinds";
import { MESSAGES } from "../lib/i18n/messages";
import { consolePages, portalBuyerWithOrder, signIn } from "./helpers";

// Issue 35.2: the console speaks in words, in the page's language. Every
// console page, in zh-CN and en, at 1366 px and on a phone: the visible text
// (document.body.innerText, minus what is marked translate="no": user data
// such as e-mails, SKU codes, product names, the audit log's recorded values)
// must hold no enum value or code identifier shown raw, and in zh-CN no
// English sentence of the message table that has a Chinese translation.
// Screenshots go to e2e/screenshots/ (gitignored) to be looked at.
// The portal's pages likewise, signed in as a buyer with an order (issue 35.2, portal side).

/** Every value of an enum the console renders (prisma/schema.prisma, lib/alerts, audit actions). */
const ENUM_VALUES = [
  ...["account_password", "card_password", "apple_account"], // delivery formats ("text" is also a word)
  ...["processing", "unknown_review", "delivered", "failed"], // order states
  ...["pending", "approved", "rejected"], // top-up states
  ...["open", "replaced", "refunded"], // claim states
  ...["active", "disabled", "available", "cheapest", "priority"], // buyer, card key, source policy
  ...ALERT_KIND_NAMES,
];
/** An identifier: snake_case, or dotted words as audit actions are (orders.export_keys); "e.g." is not one. */
const IDENTIFIER = /\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]{2,}(?:\.[a-z_]+)+\b/g;

/** The visible text, without the parts marked as data (translate="no") and without e-mails and URLs. */
async function visibleWords(page: Page): Promise<string> {
  const text = await page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const el of body.querySelectorAll('[translate="no"], script, style, template')) el.remove();
    // innerText needs layout: lay the clone out off screen. Not visibility:hidden,
    // whose text innerText leaves out (the check would then read nothing).
    body.style.position = "absolute";
    body.style.left = "-100000px";
    body.style.top = "0";
    body.style.opacity = "0";
    document.documentElement.appendChild(body);
    const out = body.innerText;
    body.remove();
    return out;
  });
  // A page always has words: an empty reading means the reading is broken, not the page clean.
  expect(text.trim().length).toBeGreaterThan(20);
  return text.replace(/\S+@\S+/g, " ").replace(/https?:\/\/\S+/g, " ");
}

/** English texts of the message table whose zh-CN text differs, as fragments between placeholders. */
function untranslatedCandidates(): string[] {
  const zh = MESSAGES["zh-CN"] as Record<string, string>;
  const out = new Set<string>();
  for (const [key, en] of Object.entries(MESSAGES.en as Record<string, string>)) {
    if (zh[key] === en) continue;
    for (const part of en.split(/\{\w+\}/)) {
      const s = part.replace(/[\s:;,.·()]+$/, "").replace(/^[\s:;,.·()]+/, "");
      // Whole short labels ("Save") are matched as a whole line; longer fragments anywhere.
      if (/[A-Za-z]{2}/.test(s)) out.add(s);
    }
  }
  return [...out];
}

function problems(text: string, locale: "en" | "zh-CN"): string[] {
  const found: string[] = [];
  for (const m of text.match(IDENTIFIER) ?? []) found.push(`identifier "${m}"`);
  const lines = text.split("\n").map((l) => l.trim());
  const cells = new Set(lines.flatMap((l) => l.split("\t").map((c) => c.trim())));
  for (const v of ENUM_VALUES) {
    if (cells.has(v)) found.push(`raw value "${v}"`);
    if (locale === "zh-CN" && new RegExp(`\\b${v}\\b`).test(text)) found.push(`English value "${v}"`);
  }
  if (locale === "zh-CN") {
    for (const en of untranslatedCandidates()) {
      const long = en.split(/\s+/).length >= 3;
      if (long ? text.includes(en) : cells.has(en)) found.push(`untranslated "${en}"`);
    }
  }
  return [...new Set(found)];
}

const SIZES = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;
const OUT = "e2e/screenshots";

for (const [sizeName, viewport] of Object.entries(SIZES)) {
  test(`issue 35.2: every console page shows words, not identifiers, in zh-CN and en (${sizeName})`, async ({ browser }) => {
    test.setTimeout(300_000);
    fs.mkdirSync(OUT, { recursive: true });
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page);
    const failures: string[] = [];
    for (const locale of ["zh-CN", "en"] as const) {
      await context.addCookies([{ name: "admin_locale", value: locale, url: `${process.env.E2E_BASE_URL}/admin` }]);
      for (const { path, name } of await consolePages(page)) {
        await page.goto(path);
        await expect(page.locator(".admin")).toHaveAttribute("lang", locale);
        for (const p of problems(await visibleWords(page), locale)) failures.push(`${path} ${locale}: ${p}`);
        await page.screenshot({ path: `${OUT}/words-${name}.${locale}.${sizeName}.png`, fullPage: true });
      }
    }
    await context.close();
    expect(failures, failures.join("\n")).toEqual([]);
  });
}

/** Every signed-in portal page (an order's page is added with the buyer's order). */
const PORTAL_PAGES = [
  "/portal",
  "/portal/prices",
  "/portal/orders",
  "/portal/statement",
  "/portal/keys",
  "/portal/top-ups",
  "/portal/integration",
  "/portal/account",
];

for (const [sizeName, viewport] of Object.entries(SIZES)) {
  test(`issue 35.2: every portal page shows words, not identifiers, in zh-CN and en (${sizeName})`, async ({ browser }) => {
    test.setTimeout(300_000);
    fs.mkdirSync(OUT, { recursive: true });
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const { orderNo } = await portalBuyerWithOrder(page, `words-${sizeName}`);
    const failures: string[] = [];
    for (const locale of ["zh-CN", "en"] as const) {
      await context.addCookies([{ name: "admin_locale", value: locale, url: `${process.env.E2E_BASE_URL}/portal` }]);
      for (const path of [...PORTAL_PAGES, `/portal/orders/${encodeURIComponent(orderNo)}`]) {
        await page.goto(path);
        await expect(page.locator(".admin")).toHaveAttribute("lang", locale);
        for (const p of problems(await visibleWords(page), locale)) failures.push(`${path} ${locale}: ${p}`);
        const name = path === "/portal" ? "overview" : path.split("/")[2];
        await page.screenshot({ path: `${OUT}/portal-${name}.${locale}.${sizeName}.png`, fullPage: true });
      }
    }
    await context.close();
    expect(failures, failures.join("\n")).toEqual([]);
  });
}
