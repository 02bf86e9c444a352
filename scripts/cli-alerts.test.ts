import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../lib/db/client";
import { startFakeBotApi, type FakeBotApi } from "../lib/testing/fake-bot-api";
import { makeProduct } from "../lib/testing/factories";
import { useTestDatabase } from "../lib/testing/test-database";
import { runCli } from "../lib/testing/run-cli";
import { anyNumber } from "@/lib/testing/matchers";

// Issue 25.1: alert channels from the command line, each command one JSON
// line; the bot token comes from a file and is never printed; bad input is
// exit 2 with nothing written.

let url: string;
let bot: FakeBotApi;
let dir: string;
// The fake Bot API is on loopback: reached through the D29 switch, as a closed network would (issue 33.2).
const cli = <T = unknown>(...args: string[]) => runCli<T>(args, { DATABASE_URL: url, CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" });
/** Without the switch, as a server on the internet runs. */
const strictCli = (...args: string[]) => runCli(args, { DATABASE_URL: url, CALLBACK_ALLOW_PRIVATE_NETWORKS: undefined });

beforeAll(async () => {
  url = await useTestDatabase();
  bot = await startFakeBotApi();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "alerts-cli-"));
  fs.writeFileSync(path.join(dir, "token"), `${bot.token}\n`);
});
afterAll(async () => {
  await bot?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run cli: alerts (issue 25.1)", () => {
  it("issue 25.1: alerts:channel:add (token from a file), alerts:test, alerts:rule:set, alerts:channel:list, sku:threshold, alerts:channel:remove", async () => {
    const added = await cli<{ id: number }>(
      "alerts:channel:add",
      "--kind",
      "telegram",
      "--name",
      "ops",
      "--bot-token-file",
      path.join(dir, "token"),
      "--chat-id",
      "-100200",
      "--api-base",
      bot.origin,
    );
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({
      id: anyNumber(),
      name: "ops",
      kind: "telegram",
      config: { chatId: "-100200", apiBase: bot.origin },
    });
    expect(added.stdout).not.toContain(bot.token);
    const id = String(added.json.id);

    const tested = await cli("alerts:test", "--id", id);
    expect(tested.json).toEqual({ id: Number(id), ok: true, error: null });
    expect(bot.messages).toHaveLength(1);
    expect(bot.messages[0].chat_id).toBe("-100200");

    const rule = await cli("alerts:rule:set", "--event", "stock_low", "--channel", id, "--off", "--threshold", "5");
    expect(rule.json).toEqual({ event: "stock_low", channel_id: Number(id), enabled: false, threshold: 5 });
    const list = await cli<{ channels: { rules: unknown }[] }>("alerts:channel:list");
    expect(list.json.channels).toHaveLength(1);
    expect(list.json.channels[0].rules).toMatchObject({ stock_low: false, order_review: true });
    expect(list.stdout).not.toContain(bot.token);

    const { sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 3 });
    const threshold = await cli("sku:threshold", "--sku-code", sku.skuCode, "--stock", "7");
    // First sight of a stocked SKU below its threshold (3 < 7): one alert, "low since it was added" (issue 33.8).
    expect(threshold.json).toEqual({ sku_id: sku.id, sku_code: sku.skuCode, stock_threshold: 7, alert: "stock_low" });

    const removed = await cli("alerts:channel:remove", "--id", id);
    expect(removed.json).toEqual({ id: Number(id), removed: true });
    expect((await cli<{ channels: unknown[] }>("alerts:channel:list")).json.channels).toHaveLength(0);
    expect((await db().auditLog.findMany({ where: { action: { startsWith: "alert." } } })).map((r) => r.actor)).toEqual(
      expect.arrayContaining(["cli"]),
    );
  }, 300_000);

  it("issue 22.8: a robot URL, which carries its access token, is read from --url-file, never needing the command line; --url and --url-file at once are refused", async () => {
    const robot = `${bot.origin}/cgi-bin/webhook/send?key=robot-token-0123456789`;
    fs.writeFileSync(path.join(dir, "robot-url"), `${robot}\n`);
    const added = await runCli<{ id: number }>(
      ["alerts:channel:add", "--kind", "wecom", "--name", "robot", "--url-file", path.join(dir, "robot-url")],
      {
        DATABASE_URL: url,
        CALLBACK_ALLOW_PRIVATE_NETWORKS: "true", // the robot is on loopback
      },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.json).toMatchObject({ kind: "wecom", config: { host: new URL(bot.origin).host } });
    expect(added.stdout).not.toContain("robot-token");
    const both = await cli("alerts:channel:add", "--kind", "wecom", "--url", robot, "--url-file", path.join(dir, "robot-url"));
    expect([both.code, both.stderr.trim()]).toEqual([2, expect.stringMatching(/give only one of --url and --url-file/)]);
    await cli("alerts:channel:remove", "--id", String(added.json.id));
  }, 300_000);

  it("issue 33.1/33.2: the command-injection SMTP URL (never run), an unknown SMTP parameter and a private or http Telegram api base are exit 2, named, nothing written", async () => {
    const marker = path.join(dir, "injected");
    const before = await db().alertChannel.count();
    const mail = (smtpUrl: string) => [
      "alerts:channel:add",
      "--kind",
      "email",
      "--smtp-url",
      smtpUrl,
      "--from",
      "a@example.test",
      "--to",
      "b@example.test",
    ];
    const tg = (apiBase: string) => [
      "alerts:channel:add",
      "--kind",
      "telegram",
      "--bot-token-file",
      path.join(dir, "token"),
      "--chat-id",
      "1",
      "--api-base",
      apiBase,
    ];
    const [injected, logger, loopback, metadata, privateSmtp] = await Promise.all([
      cli(...mail(`smtp://127.0.0.1:2525/?sendmail=true&path=/bin/sh&args=-c&args=id>${marker}`)),
      strictCli(...mail("smtp://mail.example.test:587/?logger=true")),
      strictCli(...tg(bot.origin)),
      cli(...tg("http://169.254.169.254")),
      strictCli(...mail("smtp://10.0.0.5:25")),
    ]);
    // Exit 2 and no result line (stdout may hold the switch's warning log line, never a result).
    for (const r of [injected, logger, loopback, metadata, privateSmtp])
      expect([r.code, r.stdout.split("\n").filter((l) => l.trim() && !l.includes('"level":'))]).toEqual([2, []]);
    expect(injected.stderr).toMatch(/parameter "sendmail" is not allowed/);
    expect(logger.stderr).toMatch(/parameter "logger" is not allowed/);
    expect(loopback.stderr).toMatch(/api base must use https/);
    expect(privateSmtp.stderr).toMatch(/SMTP host points to a restricted network address/);
    expect(await db().alertChannel.count()).toBe(before);
    expect(fs.existsSync(marker)).toBe(false);
  }, 300_000);

  it("issue 25.1: bad input is exit 2 and writes nothing", async () => {
    const before = await db().alertChannel.count();
    const [badKind, badEvent, badUrl, both] = await Promise.all([
      cli("alerts:channel:add", "--kind", "pager"),
      cli("alerts:rule:set", "--event", "nope", "--threshold", "1"),
      cli("alerts:channel:add", "--kind", "webhook", "--url", "ftp://example.test/x"),
      cli("alerts:rule:set", "--event", "stock_low", "--channel", "1", "--on", "--off"),
    ]);
    for (const r of [badKind, badEvent, badUrl, both]) {
      expect(r.code).toBe(2);
      expect(r.stdout.trim()).toBe("");
    }
    expect(badKind.stderr).toMatch(/--kind must be one of/);
    expect(badEvent.stderr).toMatch(/event must be one of/);
    expect(await db().alertChannel.count()).toBe(before);
  }, 300_000);
});
