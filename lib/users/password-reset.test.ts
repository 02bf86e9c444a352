import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as forgotSend } from "@/app/portal/forgot/send/route";
import { verifyPassword } from "../crypto/password";
import { addAlertChannel } from "../alerts/add-channel";
import { CLI_ACTOR, SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { createBuyerSession, findLiveBuyer } from "../portal-auth/buyer-session";
import { updateSettings } from "../settings/update-settings";
import { makeBuyer } from "../testing/factories";
import { mailText, startSmtpSink, type SmtpSink } from "../testing/smtp-sink";
import { useTestDatabase } from "../testing/test-database";
import { disableUser } from "./disable-user";
import { inviteBuyer } from "./invite-buyer";
import { requestPasswordReset, RESET_REPEAT_MS } from "./request-password-reset";
import { findUsableLink, setPasswordWithLink } from "./set-password-with-link";

// Issue 24.1: "forgot my password" by a one-time link, as a service against
// real PostgreSQL, the link mailed through a real SMTP server in this process
// (the site's e-mail channel), and the form's route handler called in-process.

const OLD = "first password 1234";
const NEW = "second password 5678";
const BASE = "http://portal.test";
let smtp: SmtpSink;
let ipSeq = 0;

beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the SMTP server is on loopback (D29, issue 33.2)
  await useTestDatabase();
  smtp = await startSmtpSink();
  await updateSettings({ language: "en", public_base_url: BASE }, { actor: SYSTEM_ACTOR });
  await addAlertChannel(
    { kind: "email", name: "site mail", smtpUrl: smtp.url, from: "shop@example.test", to: ["ops@example.test"] },
    { actor: SYSTEM_ACTOR },
  );
});
afterAll(async () => smtp?.close());

/** A buyer with a portal password set through its invitation, and one live portal session. */
async function buyerWithLogin() {
  const { user } = await makeBuyer();
  const invite = await inviteBuyer({ email: user.email, actor: CLI_ACTOR });
  await setPasswordWithLink({ token: tokenOf(invite.inviteUrl), password: OLD });
  const session = await createBuyerSession({ userId: user.id, ip: null, userAgent: null });
  return { user, sessionToken: session.token };
}

const tokenOf = (url: string) => url.split("/").at(-1)!;
/** Reset mails only (the invitation that gave the buyer its first password is mailed too). */
const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email) && m.raw.includes("Reset your buyer portal password"));
const linkIn = (raw: string) => /\/portal\/link\/([A-Za-z0-9_-]{43})/.exec(mailText(raw).replace(/\s+/g, ""))![1];
const hashOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).passwordHash!;

/** The "forgot" form as a browser posts it, from its own client address each time (the route allows 5 per address). */
async function postForgot(email: string) {
  const res = await forgotSend(
    new Request(`${BASE}/portal/forgot/send`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        host: "portal.test",
        origin: BASE,
        "x-client-address": `198.51.100.${++ipSeq}`,
      },
      body: new URLSearchParams({ email }).toString(),
    }),
  );
  return { status: res.status, location: res.headers.get("location"), cookies: res.headers.getSetCookie(), body: await res.text() };
}

describe("issue 24.1: password reset by a one-time link", () => {
  it("issue 24.1: a known and an unknown address get the same answer; only the known one is mailed, and nothing else changes", async () => {
    const { user, sessionToken } = await buyerWithLogin();
    const before = await hashOf(user.id);
    const known = await postForgot(user.email);
    const unknown = await postForgot(`nobody-${Date.now()}@example.test`);
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ status: 303, location: `${BASE}/portal/forgot?sent=1` });
    await expect.poll(() => mailsTo(user.email).length).toBe(1);
    expect(mailText(mailsTo(user.email)[0].raw)).not.toContain(OLD);
    // Asking for a reset is not a reset: the password and the live session are as they were.
    expect(await hashOf(user.id)).toBe(before);
    expect(await findLiveBuyer(sessionToken)).not.toBeNull();
    // A disabled buyer, and one without a portal login yet, get no link either, and the same answer.
    const { user: noLogin } = await makeBuyer();
    const disabled = await buyerWithLogin();
    await disableUser({ email: disabled.user.email, actor: CLI_ACTOR });
    for (const email of [noLogin.email, disabled.user.email]) {
      expect(await postForgot(email)).toEqual(unknown);
      expect(await requestPasswordReset({ email, ip: null })).toBeNull();
    }
    expect(await db().buyerLink.count({ where: { userId: { in: [noLogin.id, disabled.user.id] }, kind: "reset" } })).toBe(0);
    expect(mailsTo(noLogin.email)).toHaveLength(0);
    expect(mailsTo(disabled.user.email)).toHaveLength(0);
  });

  it("issue 24.1: the mailed link sets the new password once and ends every session; a second use, at once or later, changes nothing", async () => {
    const { user, sessionToken } = await buyerWithLogin();
    await requestPasswordReset({ email: user.email.toUpperCase(), ip: "203.0.113.9" });
    await expect.poll(() => mailsTo(user.email).length).toBe(1);
    const token = linkIn(mailsTo(user.email)[0].raw);
    expect(await findUsableLink(token)).toEqual({ kind: "reset", email: user.email });
    // Two submissions of the one link race: exactly one sets a password.
    const results = await Promise.allSettled([
      setPasswordWithLink({ token, password: NEW }),
      setPasswordWithLink({ token, password: "racing password 0000" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "not_found" } });
    const winner = results[0].status === "fulfilled" ? NEW : "racing password 0000";
    const hash = await hashOf(user.id);
    expect(await verifyPassword(winner, hash)).toBe(true);
    expect(await verifyPassword(OLD, hash)).toBe(false);
    expect(await findLiveBuyer(sessionToken)).toBeNull();
    // Used: refused later too, and the link page no longer offers the form.
    await expect(setPasswordWithLink({ token, password: "third password 9999" })).rejects.toMatchObject({ code: "not_found" });
    expect(await findUsableLink(token)).toBeNull();
    expect(await hashOf(user.id)).toBe(hash);
    const audit = await db().auditLog.findMany({ where: { targetId: user.id, action: { startsWith: "buyer.password_reset" } } });
    expect(audit.map((a) => a.action).sort()).toEqual(["buyer.password_reset", "buyer.password_reset_requested"]);
    expect(JSON.stringify(audit.map((a) => a.details))).not.toContain(token);
  });

  it("issue 24.1: fifteen requests at once, and a repeat within the minute, make one link and one mail; the link still works", async () => {
    const { user } = await buyerWithLogin();
    const [answers, direct] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => postForgot(user.email))),
      Promise.all(Array.from({ length: 10 }, () => requestPasswordReset({ email: user.email, ip: null }))),
    ]);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(direct.filter((d) => d !== null).length).toBeLessThanOrEqual(1);
    expect(await requestPasswordReset({ email: user.email, ip: null })).toBeNull();
    await expect.poll(() => mailsTo(user.email).length).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(await db().buyerLink.count({ where: { userId: user.id, kind: "reset" } })).toBe(1);
    expect(await db().auditLog.count({ where: { action: "buyer.password_reset_requested", targetId: user.id } })).toBe(1);
    await setPasswordWithLink({ token: linkIn(mailsTo(user.email)[0].raw), password: NEW });
    expect(await verifyPassword(NEW, await hashOf(user.id))).toBe(true);
  });

  it("issue 24.1: an expired link and a link replaced by a later request are refused; the newest works", async () => {
    const { user } = await buyerWithLogin();
    const aMinuteAgo = () =>
      db().buyerLink.updateMany({
        where: { userId: user.id, kind: "reset" },
        data: { createdAt: new Date(Date.now() - RESET_REPEAT_MS - 1000) },
      });
    const first = tokenOf((await requestPasswordReset({ email: user.email, ip: null }))!.url);
    await aMinuteAgo();
    const second = tokenOf((await requestPasswordReset({ email: user.email, ip: null }))!.url);
    await expect(setPasswordWithLink({ token: first, password: NEW })).rejects.toMatchObject({ code: "not_found" });
    // Two hours pass for the newest one.
    await db().buyerLink.updateMany({
      where: { userId: user.id, kind: "reset", usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect(await findUsableLink(second)).toBeNull();
    await expect(setPasswordWithLink({ token: second, password: NEW })).rejects.toMatchObject({ code: "not_found" });
    expect(await verifyPassword(OLD, await hashOf(user.id))).toBe(true);
    await aMinuteAgo();
    const third = tokenOf((await requestPasswordReset({ email: user.email, ip: null }))!.url);
    await setPasswordWithLink({ token: third, password: NEW });
    expect(await verifyPassword(NEW, await hashOf(user.id))).toBe(true);
    // A malformed token is refused before any database work.
    await expect(setPasswordWithLink({ token: "not-a-token", password: NEW })).rejects.toMatchObject({ code: "not_found" });
  });
});
