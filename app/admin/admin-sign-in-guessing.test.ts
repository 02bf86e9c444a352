import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "@/lib/admins/create-admin";
import { PER_ACCOUNT_UNTRUSTED_LIMIT, PER_ADDRESS_LIMIT } from "@/lib/admin-auth/sign-in-throttle";
import { db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { useTestDatabase } from "@/lib/testing/test-database";
import { runCli } from "@/lib/testing/run-cli";
import { signIn } from "@/lib/testing/sign-in-client";

// Every sign-in runs scrypt (128 MiB); on a shared 2-core machine a burst takes minutes.
const SLOW_MACHINE_MS = 300_000;

// Issue 8.4: guessing at the admin sign-in. Each client is a real socket bound
// to its own loopback address (and the same address in X-Forwarded-For).

let server: AppServer;
let url: string;
const PASSWORD = "correct horse battery staple";

beforeAll(async () => {
  url = await useTestDatabase();
  server = await startAppServer(url);
});
afterAll(async () => server?.stop());

/** Password evaluations (scrypt runs) the server audited for one e-mail. */
const evaluated = async (email: string) =>
  db().auditLog.count({ where: { actor: email, action: { in: ["admin.sign_in_failed", "admin.sign_in"] } } });

describe("admin sign-in under guessing", { timeout: SLOW_MACHINE_MS }, () => {
  it("issue 8.4: 40 concurrent wrong guesses then the right password: at most 5 scrypt runs, the right one refused while locked, like a wrong password", async () => {
    await createAdmin({ email: "burst@example.com", password: PASSWORD }, { actor: SYSTEM_ACTOR });
    const from = "127.0.0.11";
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(server.baseUrl, { email: "burst@example.com", password: `wrong guess ${i}`, from })),
    );
    expect(guesses.every((g) => g.error === "invalid" && !g.session)).toBe(true);
    expect(await evaluated("burst@example.com")).toBe(5);

    const right = await signIn(server.baseUrl, { email: "burst@example.com", password: PASSWORD, from });
    expect(right.session).toBeUndefined();
    // Exactly the answer of a wrong password (and of an unknown e-mail): this address is throttled as a whole, which
    // tells nothing about the account (issue 35.4's "locked" answer is for an account lock-out only: admin-sign-in.test.ts).
    const wrongElsewhere = await signIn(server.baseUrl, { email: "burst@example.com", password: "wrong again!", from: "127.0.0.12" });
    const unknown = await signIn(server.baseUrl, { email: "nobody@example.com", password: PASSWORD, from: "127.0.0.12" });
    for (const r of [right, wrongElsewhere, unknown]) expect([r.raw.status, r.raw.body]).toEqual([right.raw.status, right.raw.body]);
    expect(right.error).toBe("invalid");
    expect(await evaluated("burst@example.com")).toBe(6); // the one from 127.0.0.12 only

    // The operator lifts the lock-out.
    const unlock = await runCli(["admin:unlock", "--email", "Burst@Example.com"], { DATABASE_URL: url });
    expect(unlock.code).toBe(0);
    expect(unlock.json).toMatchObject({ email: "burst@example.com" });
    expect((await signIn(server.baseUrl, { email: "burst@example.com", password: PASSWORD, from })).session).toBeTruthy();
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: "admin.unlocked" } });
    expect(audit.actor).toBe("cli");
  });

  it("issue 8.4: an attacker at 127.0.0.2 cannot lock out the owner at 127.0.0.1 who signed in before (device cookie)", async () => {
    await createAdmin({ email: "owner@example.com", password: PASSWORD }, { actor: SYSTEM_ACTOR });
    const owner = await signIn(server.baseUrl, { email: "owner@example.com", password: PASSWORD, from: "127.0.0.1" });
    expect(owner.session).toBeTruthy();
    expect(owner.device).toBeTruthy();
    expect(owner.setCookies.find((c) => c.startsWith("cardkey-admin-device="))).toMatch(/HttpOnly/i);

    // Guesses from several addresses: each address locks itself out after 5,
    // and together they exceed the account-wide limit for untrusted clients.
    const attackers = ["127.0.0.2", "127.0.0.3", "127.0.0.4"];
    for (const from of attackers) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => signIn(server.baseUrl, { email: "owner@example.com", password: `guess ${from} ${i}`, from })),
      );
    }
    expect(await evaluated("owner@example.com")).toBeLessThanOrEqual(1 + PER_ACCOUNT_UNTRUSTED_LIMIT);
    // The attacker's own address stays locked even with the right password.
    expect((await signIn(server.baseUrl, { email: "owner@example.com", password: PASSWORD, from: "127.0.0.2" })).session).toBeUndefined();
    // A browser without the device cookie is slowed down at a fresh address too ...
    expect((await signIn(server.baseUrl, { email: "owner@example.com", password: PASSWORD, from: "127.0.0.5" })).session).toBeUndefined();
    // ... but the owner's browser (device cookie) signs in.
    const again = await signIn(server.baseUrl, { email: "owner@example.com", password: PASSWORD, from: "127.0.0.1", cookie: owner.device });
    expect(again.error).toBeNull();
    expect(again.session).toBeTruthy();
    // A device cookie for another account, or a forged one, does not count as trusted.
    const forged = owner.device!.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect(
      (await signIn(server.baseUrl, { email: "owner@example.com", password: PASSWORD, from: "127.0.0.6", cookie: forged })).session,
    ).toBeUndefined();
  });

  it("issue 8.4: one address is throttled before any scrypt work, whatever e-mails it names", async () => {
    const from = "127.0.0.21";
    const n = PER_ADDRESS_LIMIT + 10;
    const replies = await Promise.all(
      Array.from({ length: n }, (_, i) => signIn(server.baseUrl, { email: `spray-${i}@example.com`, password: "any password", from })),
    );
    expect(replies.every((r) => r.error === "invalid")).toBe(true);
    const failed = await db().auditLog.count({ where: { action: "admin.sign_in_failed", ip: from } });
    expect(failed).toBe(PER_ADDRESS_LIMIT);
    expect(await db().auditLog.count({ where: { action: "admin.sign_in_throttled", ip: from } })).toBe(1);
    // Further attempts from there cost no scrypt run (a failure is audited only after one) and no audit row.
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => signIn(server.baseUrl, { email: `late-${i}@example.com`, password: "any password", from })),
    );
    expect(await db().auditLog.count({ where: { action: "admin.sign_in_throttled", ip: from } })).toBe(1);
    expect(await db().auditLog.count({ where: { action: "admin.sign_in_failed", ip: from } })).toBe(PER_ADDRESS_LIMIT);
  });
});
