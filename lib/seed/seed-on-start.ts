import { SYSTEM_ACTOR } from "../audit/actor";
import { getSettings } from "../settings/get-settings";
import { updateSettings } from "../settings/update-settings";
import { ensureFirstAdmin } from "./ensure-first-admin";
import { isDatabaseEmpty, seedDemo } from "./seed-demo";
import { PROFILE_PREFIXES } from "../protocol/profiles";

/**
 * What `npm start` seeds (issue 2, item 5): on an empty embedded database the
 * demo catalogue, buyer and API key; in every case the first administrator
 * when there is none. Returns the lines to show the operator once (empty when
 * nothing was made).
 */
export async function seedOnStart({ embedded, baseUrl }: { embedded: boolean; baseUrl?: string }): Promise<string[]> {
  const lines: string[] = [];
  if (embedded && (await isDatabaseEmpty())) {
    const demo = await seedDemo();
    const c = demo.catalog;
    lines.push(
      row("Demo catalogue:", `${c.categoriesCreated} categories, ${c.productsCreated} products, ${c.cardKeysAdded} card keys`),
      row("Demo buyer:", `${demo.buyerEmail} (1000.00 points)`),
      row("Demo API key:", demo.apiKey),
      row("Demo API secret:", demo.apiSecret),
      row("Portal login:", `${demo.buyerEmail} / ${demo.portalPassword}`),
      "",
    );
  }
  const admin = await ensureFirstAdmin();
  if (admin) {
    lines.push(
      row("Admin login:", admin.email),
      row(
        "Admin password:",
        admin.generatedPassword ? `${admin.generatedPassword}  (change it at the first sign-in)` : "(the ADMIN_PASSWORD you set)",
      ),
    );
  }
  if (lines.length && baseUrl) await announceBaseUrl(baseUrl);
  if (lines.at(-1) === "") lines.pop();
  if (lines.length) lines.push("", "Shown once. Store them now: secrets are kept only encrypted or hashed.");
  return lines;
}

/** The column's default, which no operator chose. */
const UNSET_BASE_URL = "http://localhost:3000";

/**
 * Issues 24.1, 25.3: invitation, reset and alert links are made under
 * `public_base_url`. On the first start (something was seeded) that is still
 * the column's default, right only for port 3000: it becomes the address the
 * banner prints (NEXTAUTH_URL, else http://localhost:PORT), so the links the
 * first `user:invite` prints open. A value an operator set is left alone.
 */
async function announceBaseUrl(baseUrl: string): Promise<void> {
  const { publicBaseUrl } = await getSettings();
  const url = baseUrl.replace(/\/+$/, "");
  if (publicBaseUrl === UNSET_BASE_URL && url !== UNSET_BASE_URL) await updateSettings({ public_base_url: url }, { actor: SYSTEM_ACTOR });
}

const row = (label: string, value: string) => `${label.padEnd(17)}${value}`;

/**
 * A plain box on stdout, not through the logger: the logger is JSON for
 * machines (and redacts secrets by design), this is for the person at the terminal.
 */
export function printBox(lines: string[], out: NodeJS.WritableStream = process.stdout): void {
  if (!lines.length) return;
  const width = Math.max(...lines.map((l) => l.length));
  const rule = "═".repeat(width + 2);
  out.write(`\n╔${rule}╗\n${lines.map((l) => `║ ${l.padEnd(width)} ║`).join("\n")}\n╚${rule}╝\n\n`);
}

/**
 * The start banner (issue 10 item 7): where the console and the four API
 * prefixes (section 9) are, then whatever the first start made.
 */
export function startBanner(baseUrl: string, seedLines: string[]): string[] {
  const base = baseUrl.replace(/\/+$/, "");
  return [
    row("Admin console:", `${base}/admin`),
    row("Buyer portal:", `${base}/portal`),
    // Issue 11.2: where integrators start.
    row("API reference:", `${base}/docs`),
    // Issue 35.5: one address a line, so the box fits 80 columns.
    row("API (Profile U):", `${base}${PROFILE_PREFIXES.U[0]}`),
    row("", `${base}${PROFILE_PREFIXES.U[1]}`),
    row("API (Profile P):", `${base}${PROFILE_PREFIXES.P[0]}`),
    row("", `${base}${PROFILE_PREFIXES.P[1]}`),
    // Later starts show no password: say how to set a new one when it is lost.
    ...(seedLines.length ? ["", ...seedLines] : ["", row("Lost password?", "npm run cli -- admin:password --email E --password-stdin")]),
  ];
}
