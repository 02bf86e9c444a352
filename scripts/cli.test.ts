import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../lib/testing/test-database";
import { db } from "../lib/db/client";
import { decryptText } from "../lib/crypto/secret-box";
import { runCli } from "../lib/testing/run-cli";
import { anyDate, anyNumber, anyString, stringMatching } from "@/lib/testing/matchers";

// Issue 2 item 6, end to end: each command prints one JSON object as the
// last line of stdout, or exits non-zero with a clear message on stderr
// (2: bad input, nothing written; 1: refused or failed), never a stack trace.

let url: string;
let tmp: string;
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url });

function expectCleanError(r: { code: number | null; stdout: string; stderr: string }, code: number, message: RegExp) {
  expect(r.code).toBe(code);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.stdout.trim()).toBe("");
}

describe("npm run cli", () => {
  beforeAll(async () => {
    url = await useTestDatabase();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-cli-"));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("user:create, points:adjust and points:reconcile", async () => {
    const created = await cli("user:create", "--email", "Buyer@Example.com", "--points", "12.34");
    expect(created.code).toBe(0);
    expect(created.json).toEqual({ id: anyString(), email: "buyer@example.com", points: "12.34" });

    const [dup, badPoints, missing] = await Promise.all([
      cli("user:create", "--email", "buyer@example.com"),
      cli("user:create", "--email", "other@example.com", "--points", "1.234"),
      cli("user:create"),
    ]);
    expectCleanError(dup, 1, /already exists/);
    expectCleanError(badPoints, 2, /--points: must be a non-negative amount/);
    expectCleanError(missing, 2, /--email is required/);

    expect((await cli("points:adjust", "--email", "buyer@example.com", "--amount", "-5.00", "--reason", "refund fix")).json).toEqual({
      balance: "7.34",
    });
    const [tooMuch, zero, nobody] = await Promise.all([
      cli("points:adjust", "--email", "buyer@example.com", "--amount", "-7.35", "--reason", "x"),
      cli("points:adjust", "--email", "buyer@example.com", "--amount", "0.00", "--reason", "x"),
      cli("points:adjust", "--email", "nobody@example.com", "--amount", "1", "--reason", "x"),
    ]);
    expectCleanError(tooMuch, 1, /would take the balance of 7\.34 below zero/);
    expectCleanError(zero, 2, /--amount: must not be zero/);
    expectCleanError(nobody, 1, /no user with email nobody@example.com/);

    const user = await db().user.findUniqueOrThrow({ where: { email: "buyer@example.com" } });
    expect(user.balanceCents).toBe(734n);
    expect(await db().pointsLedger.count({ where: { userId: user.id } })).toBe(2);

    const reconcile = await cli("points:reconcile");
    expect(reconcile.json).toEqual({ ok: true, users_checked: 1, mismatches: [], payments_checked: 0, payment_mismatches: [] });
  }, 180_000);

  it("apikey:create and apikey:disable", async () => {
    await cli("user:create", "--email", "keys@example.com");
    const created = await cli<{ api_key: string; api_secret: string }>("apikey:create", "--email", "keys@example.com", "--name", "shop");
    expect(created.json).toEqual({ api_key: stringMatching(/^sk_/), api_secret: anyString() });
    const credential = await db().apiCredential.findUniqueOrThrow({ where: { apiKey: created.json.api_key } });
    expect(credential).toMatchObject({ name: "shop", isActive: true });
    expect(decryptText(credential.secretCiphertext)).toBe(created.json.api_secret);

    expect((await cli("apikey:disable", "--key", created.json.api_key)).json).toEqual({ ok: true });
    expect(await db().apiCredential.findUniqueOrThrow({ where: { id: credential.id } })).toMatchObject({
      isActive: false,
      disabledAt: anyDate(),
    });
    const [unknownKey, unknownUser, extra] = await Promise.all([
      cli("apikey:disable", "--key", "sk_nope"),
      cli("apikey:create", "--email", "ghost@example.com"),
      cli("apikey:disable", "--key", "k", "--colour", "red"),
    ]);
    expectCleanError(unknownKey, 1, /no such API key/);
    expectCleanError(unknownUser, 1, /no user with email/);
    expectCleanError(extra, 2, /Unknown option '--colour'/);
  }, 180_000);

  it("settings:set validates every pair before writing any", async () => {
    const set = await cli(
      "settings:set",
      "site_name=Demo Shop",
      "public_base_url=https://shop.example.com/",
      "image_exposure=false",
      "points_debit_enabled=true",
      "rate_limit_per_key=60",
      "rate_limit_per_ip=200",
    );
    expect(set.json).toEqual({
      site_name: "Demo Shop",
      public_base_url: "https://shop.example.com",
      image_exposure: false,
      points_debit_enabled: true,
      rate_limit_per_key: 60,
      rate_limit_per_ip: 200,
      language: "zh-CN",
      buyer_registration: "off",
    });
    const [bad, unknown, none] = await Promise.all([
      cli("settings:set", "site_name=Other", "public_base_url=ftp://x", "image_exposure=yes", "rate_limit_per_ip=0"),
      cli("settings:set", "colour=red"),
      cli("settings:set"),
    ]);
    expectCleanError(
      bad,
      2,
      /public_base_url: must be an http\(s\) URL.*image_exposure: must be true or false.*rate_limit_per_ip: must be at least 1/,
    );
    expectCleanError(unknown, 2, /unknown setting colour/);
    expectCleanError(none, 2, /at least one key=value/);
    expect(await db().siteSettings.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({ siteName: "Demo Shop", rateLimitPerIp: 200 });
  }, 180_000);

  it("issue 35.5: every database command's result names the database it used (host and name, never user or password) and the base URL of its links", async () => {
    const { host, pathname, password, username } = new URL(url);
    const set = await cli("settings:set", "public_base_url=https://links.example.com/");
    expect(set.target).toEqual({ database: `${host}${pathname}`, base_url: "https://links.example.com" });
    const invited = await cli<{ invite_url: string }>("user:invite", "--email", "target@example.com", "--init"); // --init changes nothing with DATABASE_URL
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.target).toEqual({ database: `${host}${pathname}`, base_url: "https://links.example.com" });
    expect(invited.json.invite_url.startsWith(`${invited.target!.base_url}/portal/`)).toBe(true);
    for (const r of [set, invited]) {
      expect(r.stdout).not.toContain(decodeURIComponent(password));
      expect(r.stdout).not.toContain(`${username}:`);
    }
    // What a shell script reads with jq: the field is on the result line itself.
    expect((JSON.parse(invited.stdout.trim().split("\n").at(-1)!) as { _target: { database: string } })._target.database).toBe(
      `${host}${pathname}`,
    );
  }, 180_000);

  it("catalog:import imports, re-imports as a no-op, and rejects a bad file whole", async () => {
    const first = await cli("catalog:import", "lib/seed/demo-catalog.json");
    expect(first.json).toEqual({
      categories_created: 4,
      categories_updated: 0,
      products_created: 6,
      products_updated: 0,
      skus_created: 8,
      skus_updated: 0,
      card_keys_added: 17,
      card_keys_skipped: 0,
      level_prices_changed: 0,
    });
    const again = await cli("catalog:import", "lib/seed/demo-catalog.json");
    expect(again.json).toMatchObject({
      categories_created: 0,
      categories_updated: 0,
      products_created: 0,
      products_updated: 0,
      skus_created: 0,
      skus_updated: 0,
      card_keys_added: 0,
      card_keys_skipped: 17,
    });

    const demo = JSON.parse(fs.readFileSync("lib/seed/demo-catalog.json", "utf8")) as {
      products: { slug: string; skus: { card_keys: string[] }[] }[];
    };
    demo.products[0].slug = "would-be-new";
    demo.products[1].skus[0].card_keys.push("NO-DELIMITER-SECRET");
    const badFile = path.join(tmp, "bad.json");
    fs.writeFileSync(badFile, JSON.stringify(demo, null, 2));
    const keysBefore = await db().cardKey.count();
    const [bad, missing, broken] = await Promise.all([
      cli("catalog:import", badFile),
      cli("catalog:import", path.join(tmp, "missing.json")),
      (fs.writeFileSync(path.join(tmp, "broken.json"), '{"categories": [}'), cli("catalog:import", path.join(tmp, "broken.json"))),
    ]);
    expectCleanError(bad, 2, /products\[1\]\.skus\[0\]\.card_keys\[3\]: account_password key must be/);
    expect(bad.stderr).not.toContain("NO-DELIMITER-SECRET");
    expectCleanError(missing, 2, /cannot read .*missing\.json: ENOENT/);
    expectCleanError(broken, 2, /not valid JSON \(line 1, column 17\)/);
    expect(await db().product.count({ where: { slug: "would-be-new" } })).toBe(0);
    expect(await db().cardKey.count()).toBe(keysBefore);
  }, 180_000);

  it("admin:create, and unknown commands", async () => {
    const created = await cli("admin:create", "--email", "root@example.com", "--password", "a-long-password");
    expect(created.json).toEqual({ id: anyNumber(), email: "root@example.com" });
    const [dup, short, unknown] = await Promise.all([
      cli("admin:create", "--email", "root@example.com", "--password", "a-long-password"),
      cli("admin:create", "--email", "x@example.com", "--password", "short"),
      cli("frobnicate"),
    ]);
    expectCleanError(dup, 1, /already exists/);
    expectCleanError(short, 2, /--password: must be at least 10 characters/);
    expectCleanError(unknown, 2, /unknown command "frobnicate"/);
    expect(await db().adminUser.count()).toBe(1);
    expect(await db().auditLog.count({ where: { action: "admin.create", actor: "cli" } })).toBe(1);
  }, 180_000);

  it("issue 22.8: admin:create and admin:password take the password from stdin, never needing it on the command line", async () => {
    const { verifyPassword } = await import("../lib/crypto/password");
    const hashOf = async (email: string) => (await db().adminUser.findUniqueOrThrow({ where: { email } })).passwordHash;
    const created = await runCli(
      ["admin:create", "--email", "stdin@example.com", "--password-stdin"],
      { DATABASE_URL: url },
      { stdin: "piped password 1\n" },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(await verifyPassword("piped password 1", await hashOf("stdin@example.com"))).toBe(true);
    const reset = await runCli(
      ["admin:password", "--email", "stdin@example.com", "--password-stdin"],
      { DATABASE_URL: url },
      { stdin: "piped password 2" },
    );
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).not.toContain("piped password 2");
    expect(await verifyPassword("piped password 2", await hashOf("stdin@example.com"))).toBe(true);

    const [both, empty, short] = await Promise.all([
      runCli(
        ["admin:password", "--email", "stdin@example.com", "--password", "on the line too", "--password-stdin"],
        { DATABASE_URL: url },
        { stdin: "piped password 3" },
      ),
      runCli(["admin:password", "--email", "stdin@example.com", "--password-stdin"], { DATABASE_URL: url }, { stdin: "" }),
      runCli(["admin:password", "--email", "stdin@example.com", "--password-stdin"], { DATABASE_URL: url }, { stdin: "short\n" }),
    ]);
    expectCleanError(both, 2, /give only one of --password and --password-stdin/);
    expectCleanError(empty, 2, /--password-stdin: stdin is empty/);
    expectCleanError(short, 2, /--password: must be at least 10 characters/);
    expect(short.stderr).not.toContain("short\n");
    expect(await verifyPassword("piped password 2", await hashOf("stdin@example.com"))).toBe(true);
  }, 180_000);
});
