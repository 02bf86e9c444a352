import { SYSTEM_ACTOR } from "../audit/actor";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { encryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { sendMail } from "../mail/send-mail";
import { expectError } from "../testing/expect-error";
import { startFakeBotApi, type FakeBotApi } from "../testing/fake-bot-api";
import { startLoopbackServer, type LoopbackServer } from "../testing/loopback-server";
import { startSmtpSink, type SmtpSink } from "../testing/smtp-sink";
import { startStubNameserver, type StubNameserver } from "../testing/stub-nameserver";
import { useTestDatabase } from "../testing/test-database";
import { addAlertChannel } from "./add-channel";
import { listAlertChannels } from "./list-channels";
import { removeAlertChannel } from "./remove-channel";
import { parseSmtpUrl } from "./smtp-url";
import { testAlertChannel } from "./test-channel";
import { stringMatching } from "@/lib/testing/matchers";

// Issue 33.1 and 33.2: an e-mail channel's SMTP URL is read by our parser
// only (no query parameter becomes a nodemailer option), and the SMTP host and
// the Telegram API base obey the callbacks' D29 address policy, at add time
// and at connect time, with the same CALLBACK_ALLOW_PRIVATE_NETWORKS switch.
// Real parts: an SMTP server, a fake Bot API and an "internal service" on
// loopback, a stub nameserver.

let dir: string;
let smtp: SmtpSink;
let bot: FakeBotApi;
let internal: LoopbackServer;
let dns: StubNameserver;
const INTERNAL_BODY = "INTERNAL-ONLY-BODY-7f3a";
const internalHits: string[] = [];
const allowPrivate = (on: boolean) => (process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = on ? "true" : "false");
/** The URL of the issue's reproduction: nodemailer would run /bin/sh -c 'id>marker'. */
const injection = (marker: string) =>
  `smtp://127.0.0.1:2525/?sendmail=true&path=/bin/sh&args=-c&args=${encodeURIComponent(`id>${marker}`)}`;

beforeAll(async () => {
  await useTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "issue33-"));
  [smtp, bot, dns] = await Promise.all([startSmtpSink(), startFakeBotApi(), startStubNameserver()]);
  internal = await startLoopbackServer((req, _body, res) => {
    internalHits.push(req.url ?? "");
    res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ ok: false, description: INTERNAL_BODY, secret: INTERNAL_BODY }));
  });
  process.env.DNS_SERVERS = dns.server;
});
afterEach(() => allowPrivate(false));
afterAll(async () => {
  delete process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS;
  delete process.env.DNS_SERVERS;
  await Promise.all([smtp?.close(), bot?.close(), internal?.close(), dns?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const email = (smtpUrl: string) => ({ kind: "email" as const, smtpUrl, from: "shop@example.test", to: ["ops@example.test"] });
const telegram = (apiBase: string) => ({ kind: "telegram" as const, botToken: bot.token, chatId: "-100333", apiBase });

describe("issue 33.1: no SMTP URL reaches nodemailer", () => {
  it("issue 33.1: the command-injection SMTP URL is refused by the service the console form uses, naming sendmail; the command never runs", async () => {
    allowPrivate(true); // so that only the parser stands in the way
    const marker = path.join(dir, "added");
    const before = await db().alertChannel.count();
    const err = await expectError(addAlertChannel(email(injection(marker)), { actor: SYSTEM_ACTOR }), "bad_request");
    expect(err.publicMessage).toMatch(/parameter "sendmail" is not allowed/);
    expect(err.publicMessage).not.toContain("\n");
    expect(await db().alertChannel.count()).toBe(before);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("issue 33.1: any query parameter but requireTLS is refused with a one-line error naming it; what smtpUrlOf writes is read back", async () => {
    for (const [param, name] of [
      ["logger=true", "logger"],
      ["tls.rejectUnauthorized=false", "tls.rejectUnauthorized"],
      ["pool=true", "pool"],
      ["requireTLS=true&debug=true", "debug"],
    ]) {
      expect(() => parseSmtpUrl(`smtp://u:p@mail.example.test:587/?${param}`)).toThrow(
        `SMTP URL: parameter "${name}" is not allowed (only requireTLS)`,
      );
      const err = await expectError(
        addAlertChannel(email(`smtp://u:p@mail.example.test:587/?${param}`), { actor: SYSTEM_ACTOR }),
        "bad_request",
      );
      expect(err.publicMessage).toContain(`"${name}"`);
    }
    expect(() => parseSmtpUrl("smtp://mail.example.test/x")).toThrow("SMTP URL: no path is allowed after the host");
    expect(parseSmtpUrl("smtp://a%40b:p%40ss%2Fw%3Ard%231@mail.example.test:587?requireTLS=true")).toEqual({
      host: "mail.example.test",
      port: 587,
      security: "starttls",
      user: "a@b",
      password: "p@ss/w:rd#1",
    });
    expect(parseSmtpUrl("smtps://[::1]")).toMatchObject({ host: "::1", port: 465, security: "tls", user: null });
  });

  it("issue 33.1: a stored injected channel (as an old version stored it) shows failing with the parser's reason and is never used: test button, portal mail", async () => {
    allowPrivate(true);
    const marker = path.join(dir, "stored");
    const row = await db().alertChannel.create({
      data: {
        name: "old mail",
        kind: "email",
        config: { from: "shop@example.test", to: ["ops@example.test"] },
        secretCiphertext: encryptText(JSON.stringify({ smtpUrl: injection(marker) })),
      },
    });
    const view = (await listAlertChannels()).find((c) => c.id === row.id)!;
    expect(view).toMatchObject({ failing: true, last_error: stringMatching(/^SMTP URL: parameter "sendmail" is not allowed/) });

    const tested = await testAlertChannel({ id: row.id }, { actor: SYSTEM_ACTOR });
    expect(tested).toMatchObject({ ok: false, error: stringMatching(/parameter "sendmail" is not allowed/) });
    const mailed = await sendMail({ to: "buyer@example.test", subject: "reset", text: "link" });
    expect(mailed).toMatchObject({ ok: false, configured: true, error: stringMatching(/"sendmail"/) });
    expect(fs.existsSync(marker)).toBe(false);
    await removeAlertChannel({ id: row.id }, { actor: SYSTEM_ACTOR });
  });
});

describe("issue 33.2: the Telegram API base and the SMTP host obey the address policy", () => {
  it("issue 33.2: Telegram api base 127.0.0.1, 169.254.169.254, a name resolving to loopback and plain http are refused without the switch", async () => {
    dns.records["bot.example.test"] = ["127.0.0.1"];
    const port = new URL(bot.origin).port;
    for (const apiBase of [
      bot.origin, // http://127.0.0.1
      `https://127.0.0.1:${port}`,
      "http://169.254.169.254",
      "https://169.254.169.254",
      `https://bot.example.test:${port}`,
      "http://93.184.215.14", // a public address, but http: the token would cross the network in clear
    ])
      await expectError(addAlertChannel(telegram(apiBase), { actor: SYSTEM_ACTOR }), "bad_request");
    allowPrivate(true);
    // The switch opens loopback (and http to it, for a fake), never metadata, never http to a public address.
    for (const apiBase of ["http://169.254.169.254", "https://169.254.169.254", "http://93.184.215.14", "http://bot.example.test"])
      await expectError(addAlertChannel(telegram(apiBase), { actor: SYSTEM_ACTOR }), "bad_request");
    const ok = await addAlertChannel(telegram(bot.origin), { actor: SYSTEM_ACTOR });
    expect(await testAlertChannel({ id: ok.id }, { actor: SYSTEM_ACTOR })).toMatchObject({ ok: true });

    // A channel stored under the switch is refused at connect time once it is off: the token is not sent.
    allowPrivate(false);
    const sent = bot.messages.length;
    expect(await testAlertChannel({ id: ok.id }, { actor: SYSTEM_ACTOR })).toMatchObject({
      ok: false,
      error: stringMatching(/^Telegram: api base must use https/),
    });
    expect(bot.messages.length).toBe(sent);
    await removeAlertChannel({ id: ok.id }, { actor: SYSTEM_ACTOR });
  });

  it("issue 33.2: an error from a channel never carries the far side's body, only our text and the status", async () => {
    allowPrivate(true);
    const ch = await addAlertChannel(telegram(internal.origin), { actor: SYSTEM_ACTOR });
    const result = await testAlertChannel({ id: ch.id }, { actor: SYSTEM_ACTOR });
    expect(result).toEqual({ id: ch.id, ok: false, error: "Telegram: the request failed (HTTP 500)" });
    expect(JSON.stringify(await listAlertChannels())).not.toContain(INTERNAL_BODY);
    await removeAlertChannel({ id: ch.id }, { actor: SYSTEM_ACTOR });

    smtp.failNext = 1; // "451 Try again later": its text is not ours
    const mail = await addAlertChannel(email(smtp.url), { actor: SYSTEM_ACTOR });
    const refused = await testAlertChannel({ id: mail.id }, { actor: SYSTEM_ACTOR });
    expect(refused).toMatchObject({ ok: false, error: "SMTP: EMESSAGE 451" });
    await removeAlertChannel({ id: mail.id }, { actor: SYSTEM_ACTOR });
  });

  it("issue 33.2: an SMTP host on a private address is refused at add, and at connect when its name turns private (closed port or open, the same answer)", async () => {
    await expectError(addAlertChannel(email(smtp.url), { actor: SYSTEM_ACTOR }), "bad_request");
    await expectError(addAlertChannel(email("smtp://10.1.2.3:25"), { actor: SYSTEM_ACTOR }), "bad_request");
    await expectError(addAlertChannel(email("smtp://169.254.169.254:25"), { actor: SYSTEM_ACTOR }), "bad_request");
    await expectError(addAlertChannel(email("smtp://metadata.google.internal:25"), { actor: SYSTEM_ACTOR }), "bad_request");

    dns.records["mail.example.test"] = ["93.184.215.14"]; // public when added (example.com's; never connected to)
    const open = await addAlertChannel(email(`smtp://${smtp.user}:${smtp.password}@mail.example.test:${smtp.port}`), {
      actor: SYSTEM_ACTOR,
    });
    const closed = await addAlertChannel(email(`smtp://mail.example.test:1`), { actor: SYSTEM_ACTOR });
    dns.records["mail.example.test"] = ["127.0.0.1"]; // loopback at send: the sink, or a closed port
    const asked = dns.questions.length;
    const received = smtp.mails.length;
    const [a, b] = [
      await testAlertChannel({ id: open.id }, { actor: SYSTEM_ACTOR }),
      await testAlertChannel({ id: closed.id }, { actor: SYSTEM_ACTOR }),
    ];
    expect(a).toMatchObject({ ok: false, error: "SMTP: refused to connect: loopback address" });
    expect(b.error).toBe(a.error);
    expect(dns.questions.length).toBeGreaterThan(asked); // checked at send, not only at add
    expect(smtp.mails.length).toBe(received);
    await removeAlertChannel({ id: open.id }, { actor: SYSTEM_ACTOR });
    await removeAlertChannel({ id: closed.id }, { actor: SYSTEM_ACTOR });
  });
});
