import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as registerSend } from "@/app/portal/register/send/route";
import { addAlertChannel } from "../alerts/add-channel";
import { CLI_ACTOR, SYSTEM_ACTOR } from "../audit/actor";
import { createApiKey } from "../credentials/create-api-key";
import { db } from "../db/client";
import { updateSettings } from "../settings/update-settings";
import { makeBuyer } from "../testing/factories";
import { mailText, startSmtpSink, type SmtpSink } from "../testing/smtp-sink";
import { useTestDatabase } from "../testing/test-database";
import { approveRegistration } from "./approve-registration";
import { registerBuyer } from "./register-buyer";
import { setPasswordWithLink } from "./set-password-with-link";
import { stringContaining } from "@/lib/testing/matchers";

// Issue 24.1: open sign-up with an administrator's approval, as a service
// against real PostgreSQL, the link mailed through a real SMTP server in this
// process, and the sign-up form's route handler called in-process.

const BASE = "http://portal.test";
let smtp: SmtpSink;
let seq = 0;

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

const fresh = () => `signup-${Date.now()}-${++seq}@example.test`;
const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));
const setting = (value: "off" | "approval") => updateSettings({ buyer_registration: value }, { actor: SYSTEM_ACTOR });
/** Mail goes out after the answer (not awaited): wait for what arrives, then a little longer for anything extra. */
const settledMails = async (email: string, expected: number) => {
  await expect.poll(() => mailsTo(email).length).toBe(expected);
  await new Promise((r) => setTimeout(r, 300));
  return mailsTo(email);
};

/** The sign-up form as a browser posts it, each from its own client address (the route allows 5 per address and hour). */
async function postRegister(email: string) {
  const res = await registerSend(
    new Request(`${BASE}/portal/register/send`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        host: "portal.test",
        origin: BASE,
        "x-client-address": `198.51.100.${++seq % 250}`,
      },
      body: new URLSearchParams({ email }).toString(),
    }),
  );
  return { status: res.status, location: res.headers.get("location"), cookies: res.headers.getSetCookie(), body: await res.text() };
}

describe("issue 24.1: open registration with approval", () => {
  it("issue 24.1: with buyer_registration off, sign-up creates nothing and mails nothing", async () => {
    await setting("off");
    const email = fresh();
    expect(await registerBuyer({ email, ip: null })).toEqual({ open: false });
    await postRegister(email);
    expect(await db().user.count({ where: { email } })).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(email)).toHaveLength(0);
  });

  it("issue 24.1: a new account waits for approval: no API key until an administrator approves, then one; approving twice changes nothing", async () => {
    await setting("approval");
    const email = fresh();
    const registered = await registerBuyer({ email: email.toUpperCase(), ip: "203.0.113.4" });
    expect(registered).toMatchObject({ open: true, url: stringContaining(`${BASE}/portal/link/`) });
    const [mail] = await settledMails(email, 1);
    expect(mailText(mail.raw).replace(/\s+/g, "")).toContain(registered.url);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(user).toMatchObject({ registrationPending: true, status: "active", balanceCents: 0n, passwordHash: null });
    // The buyer proves the address and chooses a password: still pending.
    await setPasswordWithLink({ token: registered.url!.split("/").at(-1)!, password: "sign-up password 42" });
    await expect(createApiKey({ userId: user.id, name: "shop", actor: CLI_ACTOR })).rejects.toMatchObject({ code: "account_pending" });
    expect(await db().apiCredential.count({ where: { userId: user.id } })).toBe(0);
    // Ten approvals at once (two administrators, double clicks): all say approved, one is recorded.
    const approvals = await Promise.all(Array.from({ length: 10 }, () => approveRegistration({ userId: user.id, actor: CLI_ACTOR })));
    expect(new Set(approvals.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify({ id: user.id, email, approved: true })]));
    expect(await db().auditLog.count({ where: { action: "user.approve_registration", targetId: user.id } })).toBe(1);
    expect((await createApiKey({ userId: user.id, name: "shop", actor: CLI_ACTOR })).apiKey).toMatch(/\S/);
    await expect(approveRegistration({ userId: "00000000-0000-4000-8000-000000000000", actor: CLI_ACTOR })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("issue 24.1: the same new address signed up five times at once makes one account, one link, one mail, one audit row", async () => {
    await setting("approval");
    const email = fresh();
    const answers = await Promise.all(Array.from({ length: 5 }, () => postRegister(email)));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 303, location: `${BASE}/portal/register?done=1` });
    const users = await db().user.findMany({ where: { email } });
    expect(users).toHaveLength(1);
    expect(await db().buyerLink.count({ where: { userId: users[0].id } })).toBe(1);
    expect(await db().auditLog.count({ where: { action: "buyer.register", targetId: users[0].id } })).toBe(1);
    expect(await settledMails(email, 1)).toHaveLength(1);
    // Again later: still nothing new.
    expect(await registerBuyer({ email, ip: null })).toEqual({ open: true });
    expect(await db().buyerLink.count({ where: { userId: users[0].id } })).toBe(1);
    expect(await settledMails(email, 1)).toHaveLength(1);
  });

  it("issue 24.1: signing up with an existing buyer's address answers like a new one and changes nothing of that buyer", async () => {
    await setting("approval");
    const { user } = await makeBuyer();
    const before = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    const existing = await postRegister(user.email);
    const unknown = await postRegister(fresh());
    expect(existing).toEqual(unknown);
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toEqual(before);
    expect(await db().buyerLink.count({ where: { userId: user.id } })).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(user.email)).toHaveLength(0);
  });
});
