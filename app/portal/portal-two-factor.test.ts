import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentTotp } from "@/lib/admin-auth/totp";
import { mailText, startSmtpSink, addSiteMailChannel } from "@/lib/testing/smtp-sink";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { decryptText } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { makeBuyer } from "@/lib/testing/factories";
import { runCli } from "@/lib/testing/run-cli";
import { useTestDatabase } from "@/lib/testing/test-database";
import { inviteBuyer } from "@/lib/users/invite-buyer";
import { requestPasswordReset } from "@/lib/users/request-password-reset";
import { setPasswordWithLink } from "@/lib/users/set-password-with-link";

// Issue 24.1: a buyer's optional two-factor sign-in, over real HTTP against
// the real built server, under the console's rules (lib/admin-auth: set up
// with an authenticator code, a code or recovery code works once, guessing
// is throttled). The portal's form works without JavaScript, so the code is
// a second page: a signed ticket carries "the password was right" between them.

const SLOW = 300_000;
const PASSWORD = "portal password 1234";
let server: AppServer;
let databaseUrl: string;
let ipSeq = 0;

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the SMTP server is on loopback (D29, issue 33.2)
  databaseUrl = await useTestDatabase();
  // One proxy hop trusted: each test's X-Forwarded-For names its own client address for the guessing counters.
  server = await startAppServer(databaseUrl, { TRUSTED_PROXIES: "127.0.0.1/32" });
}, SLOW);
afterAll(async () => server?.stop());

const cookiesOf = (res: Response) =>
  new Map(res.headers.getSetCookie().map((c) => c.split(";")[0].split(/=(.*)/s).slice(0, 2) as [string, string]));

async function buyer() {
  const { user } = await makeBuyer();
  const invite = await inviteBuyer({ email: user.email, actor: CLI_ACTOR });
  await setPasswordWithLink({ token: invite.inviteUrl.split("/").at(-1)!, password: PASSWORD });
  return user;
}

/** One POST of the sign-in form (either page) from `ip`; answers where it leads and the cookies it set. */
async function postSession(fields: Record<string, string>, ip: string, cookie = "") {
  const res = await fetch(server.baseUrl + "/portal/session", {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl, "x-forwarded-for": ip, cookie },
    body: new URLSearchParams(fields).toString(),
  });
  expect(res.status).toBe(303);
  const url = new URL(res.headers.get("location")!);
  const set = cookiesOf(res);
  return { to: url.pathname + url.search, session: set.get("cardkey-portal-session"), ticket: set.get("cardkey-portal-code-step") };
}

/** Password page then, when asked, the code page: the session cookie, or null. */
async function signIn(email: string, code: string | null, ip = `203.0.113.${++ipSeq}`) {
  const first = await postSession({ email, password: PASSWORD }, ip);
  if (first.to === "/portal") return first.session ? `cardkey-portal-session=${first.session}` : null;
  expect(first.to).toBe("/portal/sign-in?step=code");
  if (code === null) return null;
  const second = await postSession({ code }, ip, `cardkey-portal-code-step=${first.ticket}`);
  return second.to === "/portal" && second.session ? `cardkey-portal-session=${second.session}` : null;
}

const action = async (path: string, cookie: string, body: object = {}, ip = "127.0.0.1") => {
  const res = await fetch(server.baseUrl + path, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: server.baseUrl, "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { reveal?: { label: string; value: string }[] } };
};

/** Turns two-factor on in the Account page's way (each step with the password, issue 33.6); answers the secret and the recovery codes. */
async function turnOn(email: string, cookie?: string) {
  cookie ??= (await signIn(email, null))!;
  const begun = await action("/portal/api/two-factor/begin", cookie, { password: PASSWORD });
  expect(begun.status).toBe(200);
  const secret = begun.json.reveal![0].value;
  expect((await action("/portal/api/two-factor/enable", cookie, { code: "000000", password: PASSWORD })).status).toBe(400);
  const enableCode = currentTotp(secret);
  const enabled = await action("/portal/api/two-factor/enable", cookie, { code: enableCode, password: PASSWORD });
  expect(enabled.status).toBe(200);
  return { cookie, secret, enableCode, recovery: enabled.json.reveal!.map((r) => r.value) };
}

describe("issue 24.1: buyer two-factor sign-in", { timeout: SLOW }, () => {
  it("issue 24.1: set up with an authenticator code (secret encrypted at rest); sign-in then asks for the code, and each code works once", async () => {
    const user = await buyer();
    const { secret, enableCode, recovery } = await turnOn(user.email);
    expect(recovery).toHaveLength(8);
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpEnabled).toBe(true);
    expect(Buffer.from(row.totpSecretCiphertext!).toString("latin1")).not.toContain(secret);
    expect(decryptText(row.totpSecretCiphertext!)).toBe(secret);
    expect(JSON.stringify(row.recoveryCodeHashes)).not.toContain(recovery[0].replace(/-/g, ""));

    // The password alone no longer signs in; the code that proved the setup is used up (as the console's).
    expect(await signIn(user.email, null)).toBeNull();
    expect(await signIn(user.email, enableCode)).toBeNull();
    const next = currentTotp(secret, Date.now() + 30_000);
    const cookie = await signIn(user.email, next);
    expect(cookie).not.toBeNull();
    expect((await fetch(server.baseUrl + "/portal", { headers: { cookie: cookie! }, redirect: "manual" })).status).toBe(200);
    expect(await signIn(user.email, next)).toBeNull();
    // A recovery code works once.
    expect(await signIn(user.email, recovery[0].toUpperCase())).not.toBeNull();
    expect(await signIn(user.email, recovery[0])).toBeNull();
    const actions = (await db().auditLog.findMany({ where: { targetId: user.id }, select: { action: true, details: true } })).map(
      (a) => a.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        "buyer.totp_setup_started",
        "buyer.totp_enabled",
        "buyer.sign_in_failed",
        "buyer.recovery_code_used",
        "buyer.sign_in",
      ]),
    );
    expect(server.output()).not.toContain(secret);
  });

  it("issue 24.1: the code page needs its own unexpired, untampered ticket, and a password reset voids it", async () => {
    const user = await buyer();
    const { secret } = await turnOn(user.email);
    const ip = `198.51.100.${++ipSeq}`;
    const code = currentTotp(secret, Date.now() + 30_000);
    expect((await postSession({ code }, ip)).to).toBe("/portal/sign-in?error=expired");
    const { ticket } = await postSession({ email: user.email, password: PASSWORD }, ip);
    const [payload, sig] = ticket!.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), e: "x@example.test" }));
    expect((await postSession({ code }, ip, `cardkey-portal-code-step=${forged.toString("base64url")}.${sig}`)).to).toBe(
      "/portal/sign-in?error=expired",
    );
    // The password changes between the two pages: the ticket proves nothing any more.
    const reset = await requestPasswordReset({ email: user.email, ip: null });
    await setPasswordWithLink({ token: reset!.url.split("/").at(-1)!, password: "another password 5678" });
    const after = await postSession({ code }, ip, `cardkey-portal-code-step=${ticket}`);
    expect(after).toMatchObject({ to: "/portal/sign-in?step=code&error=invalid", session: undefined });
    // The reset left two-factor on.
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabled).toBe(true);
  });

  it("issue 24.1: guessing codes is throttled like passwords: after five wrong codes even the right one is refused", async () => {
    const user = await buyer();
    const { secret } = await turnOn(user.email);
    const ip = `192.0.2.${++ipSeq}`;
    const { ticket } = await postSession({ email: user.email, password: PASSWORD }, ip);
    for (let i = 0; i < 5; i++)
      expect((await postSession({ code: "123456" }, ip, `cardkey-portal-code-step=${ticket}`)).session).toBeUndefined();
    const right = currentTotp(secret, Date.now() + 30_000);
    expect((await postSession({ code: right }, ip, `cardkey-portal-code-step=${ticket}`)).session).toBeUndefined();
    expect(await db().auditLog.count({ where: { action: "buyer.sign_in_throttled", actor: `buyer:${user.email}` } })).toBe(1);
    // Another network is not locked out by it.
    expect(await signIn(user.email, right, `192.0.2.${++ipSeq}`)).not.toBeNull();
  });

  it("issue 24.1: turning two-factor off needs the password; then the password alone signs in again", async () => {
    const user = await buyer();
    const { cookie } = await turnOn(user.email);
    expect((await action("/portal/api/two-factor/begin", cookie, { password: PASSWORD })).status).toBe(409);
    expect((await action("/portal/api/two-factor/disable", cookie, { password: "not my password 1" })).status).toBe(400);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabled).toBe(true);
    expect((await action("/portal/api/two-factor/disable", cookie, { password: PASSWORD })).status).toBe(200);
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      totpEnabled: false,
      totpSecretCiphertext: null,
      recoveryCodeHashes: [],
    });
    expect(await signIn(user.email, null)).not.toBeNull();
  });

  it("issue 24.1: an operator turns off the two-factor of a buyer who lost the phone and the codes (user:two-factor-off), once", async () => {
    const user = await buyer();
    await turnOn(user.email);
    const off = await runCli(["user:two-factor-off", "--email", user.email.toUpperCase()], { DATABASE_URL: databaseUrl });
    expect(off.json).toEqual({ id: user.id, email: user.email, two_factor: false, was_on: true });
    expect(await signIn(user.email, null)).not.toBeNull();
    const again = await runCli(["user:two-factor-off", "--email", user.email], { DATABASE_URL: databaseUrl });
    expect(again.json).toMatchObject({ was_on: false });
    expect(await db().auditLog.count({ where: { action: "buyer.totp_reset", targetId: user.id, actor: "cli" } })).toBe(1);
    expect((await runCli(["user:two-factor-off", "--email", "nobody@example.test"], { DATABASE_URL: databaseUrl })).code).not.toBe(0);
  });

  it("issue 33.6: two-factor begin/enable without or with a wrong password are refused and nothing changes; the guesses count on the sign-in throttle", async () => {
    const user = await buyer();
    const ip = `192.0.2.${++ipSeq}`;
    const cookie = (await signIn(user.email, null, ip))!;
    expect((await action("/portal/api/two-factor/begin", cookie, {}, ip)).status).toBe(400);
    const begun = await action("/portal/api/two-factor/begin", cookie, { password: PASSWORD }, ip);
    const code = currentTotp(begun.json.reveal![0].value);
    expect((await action("/portal/api/two-factor/enable", cookie, { code }, ip)).status).toBe(400);
    // Five wrong passwords from this address, at either step: then even the right one is refused, here and at sign-in.
    for (const step of ["begin", "enable", "begin", "enable", "begin"])
      expect((await action(`/portal/api/two-factor/${step}`, cookie, { code, password: "not my password 1" }, ip)).status).toBe(400);
    expect((await action("/portal/api/two-factor/enable", cookie, { code, password: PASSWORD }, ip)).status).toBe(429);
    expect((await action("/portal/api/two-factor/begin", cookie, { password: PASSWORD }, ip)).status).toBe(429);
    expect((await postSession({ email: user.email, password: PASSWORD }, ip)).session).toBeUndefined();
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ totpEnabled: false });
    expect(await db().auditLog.count({ where: { action: "buyer.password_confirm_failed", targetId: user.id } })).toBe(5);
    // The owner elsewhere is not locked out by a thief's guesses.
    const elsewhere = `192.0.2.${++ipSeq}`;
    expect((await action("/portal/api/two-factor/begin", cookie, { password: PASSWORD }, elsewhere)).status).toBe(200);
  });

  it("issue 33.6: enabling two-factor ends the buyer's other sessions (an old cookie is signed out) and mails the account", async () => {
    const smtp = await startSmtpSink();
    // This test's channel, removed after it (a retry adds its own).
    const channel = await addSiteMailChannel(smtp);
    try {
      const user = await buyer();
      const old = (await signIn(user.email, null))!;
      const mine = (await signIn(user.email, null))!;
      const opens = async (cookie: string) =>
        (await fetch(server.baseUrl + "/portal", { headers: { cookie }, redirect: "manual" })).status === 200;
      expect([await opens(old), await opens(mine)]).toEqual([true, true]);
      const { secret } = await turnOn(user.email, mine);
      expect([await opens(old), await opens(mine)]).toEqual([false, true]);
      // Sent before the answer; the invitation mailed to the same address is not it.
      const turnedOn = () =>
        smtp.mails.filter((m) => m.to.includes(user.email) && /Two-factor sign-in was turned on|开启两步验证/.test(mailText(m.raw)));
      await expect.poll(() => turnedOn().length, { timeout: 10_000 }).toBe(1);
      const text = mailText(turnedOn()[0].raw);
      expect(text).toMatch(/Every other signed-in session was ended|其他已登录的会话均已结束/);
      expect(text).not.toContain(secret);
    } finally {
      await db().alertChannel.update({ where: { id: channel.id }, data: { deletedAt: new Date() } });
      await smtp.close();
    }
  });
});
