import { beforeAll, describe, expect, it } from "vitest";
import { buyerTotpOwner } from "../admin-auth/manage-totp";
import { verifyPassword } from "../crypto/password";
import { db } from "../db/client";
import { createBuyerSession, findLiveBuyer } from "../portal-auth/buyer-session";
import { makeBuyer } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { changeBuyerPassword, ChangeBuyerPasswordSchema } from "./change-buyer-password";
import { hashPassword } from "../crypto/password";

// Issue 35.4: a buyer changes the portal password from the account page. The
// current password is asked again (issue 33.6's rule: a session is not the
// password); the new hash, the end of the other sessions and the audit row
// are one transaction; this session stays.

const OLD = "old portal password 1";
const NEW = "new portal password 2";

beforeAll(async () => {
  await useTestDatabase();
}, 60_000);

async function buyerWithSessions() {
  const b = await makeBuyer({});
  await db().user.update({ where: { id: b.user.id }, data: { passwordHash: await hashPassword(OLD) } });
  const mine = await createBuyerSession({ userId: b.user.id, ip: "127.0.0.1", userAgent: null });
  const other = await createBuyerSession({ userId: b.user.id, ip: "127.0.0.2", userAgent: null });
  const me = (await findLiveBuyer(mine.token))!;
  const owner = buyerTotpOwner({ userId: b.user.id, email: b.user.email, ip: "127.0.0.1", sessionId: me.sessionId });
  return { b, mine, other, owner };
}

const input = (password: string, newPassword = NEW, confirm = newPassword) =>
  ChangeBuyerPasswordSchema.parse({ password, newPassword, confirm });

describe("issue 35.4: a buyer changes the password on the account page", () => {
  it("issue 35.4: the right current password sets the new one, ends the other sessions, keeps this one, and is audited", async () => {
    const { b, mine, other, owner } = await buyerWithSessions();
    await changeBuyerPassword(owner, input(OLD));
    const { passwordHash } = await db().user.findUniqueOrThrow({ where: { id: b.user.id } });
    expect(await verifyPassword(NEW, passwordHash!)).toBe(true);
    expect(await findLiveBuyer(mine.token)).not.toBeNull();
    expect(await findLiveBuyer(other.token)).toBeNull();
    expect(await db().auditLog.count({ where: { action: "buyer.password_change", targetId: b.user.id } })).toBe(1);
    // The same form sent again: the "current" password is now wrong, nothing changes a second time.
    await expect(changeBuyerPassword(owner, input(OLD, "a third password 33"))).rejects.toMatchObject({ code: "bad_request" });
    expect(await verifyPassword(NEW, (await db().user.findUniqueOrThrow({ where: { id: b.user.id } })).passwordHash!)).toBe(true);
  });

  it("issue 35.4: a wrong current password changes nothing (no hash, no session ended, no change audited)", async () => {
    const { b, other, owner } = await buyerWithSessions();
    await expect(changeBuyerPassword(owner, input("not my password"))).rejects.toMatchObject({ code: "bad_request" });
    const { passwordHash } = await db().user.findUniqueOrThrow({ where: { id: b.user.id } });
    expect(await verifyPassword(OLD, passwordHash!)).toBe(true);
    expect(await findLiveBuyer(other.token)).not.toBeNull();
    expect(await db().auditLog.count({ where: { action: "buyer.password_change", targetId: b.user.id } })).toBe(0);
  });

  it("issue 35.4: the form's rules: the new password twice, at least 10 characters, the current one given", () => {
    const issues = (v: object) => ChangeBuyerPasswordSchema.safeParse(v).error?.issues.map((i) => i.path.join("."));
    expect(issues({ password: OLD, newPassword: NEW, confirm: "something else 12" })).toEqual(["confirm"]);
    expect(issues({ password: OLD, newPassword: "short", confirm: "short" })).toEqual(["newPassword"]);
    expect(issues({ password: "", newPassword: NEW, confirm: NEW })).toEqual(["password"]);
  });
});
