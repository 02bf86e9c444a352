import { beforeAll, describe, expect, it } from "vitest";
import { buyerActor } from "../audit/actor";
import { db } from "../db/client";
import { makeBuyer } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { createBuyerSession, findLiveBuyer, revokeBuyerSession } from "./buyer-session";

// Issue 34.3: ending a portal session (sign-out, or "end" in the session
// list) writes its own audit row in the same transaction; the routes no
// longer audit for it.

beforeAll(async () => {
  await useTestDatabase();
});

async function buyerWithSession() {
  const { user } = await makeBuyer();
  const { token } = await createBuyerSession({ userId: user.id, ip: "198.51.100.7", userAgent: "test" });
  const live = (await findLiveBuyer(token))!;
  return { user, live, actor: buyerActor({ userId: user.id, ip: "198.51.100.7" }) };
}

const rowsFor = (email: string) => db().auditLog.findMany({ where: { actor: `buyer:${email}` }, orderBy: { id: "asc" } });

describe("issue 34.3: revokeBuyerSession audits itself", () => {
  it("issue 34.3: sign-out writes buyer.sign_out, ending a listed session writes buyer.session_end", async () => {
    const a = await buyerWithSession();
    expect(await revokeBuyerSession({ userId: a.user.id, sessionId: a.live.sessionId, actor: a.actor, why: "sign_out" })).toBe(true);
    const b = await buyerWithSession();
    expect(await revokeBuyerSession({ userId: b.user.id, sessionId: b.live.sessionId, actor: b.actor, why: "session_end" })).toBe(true);

    expect(await rowsFor(a.user.email)).toMatchObject([
      { action: "buyer.sign_out", targetType: "user", targetId: a.user.id, ip: "198.51.100.7" },
    ]);
    expect(await rowsFor(b.user.email)).toMatchObject([
      { action: "buyer.session_end", targetType: "buyer_session", targetId: b.live.sessionId },
    ]);
  });

  it("issue 34.3: another buyer's session, or one already ended, is not ended and not audited", async () => {
    const a = await buyerWithSession();
    const b = await buyerWithSession();
    expect(await revokeBuyerSession({ userId: a.user.id, sessionId: b.live.sessionId, actor: a.actor, why: "session_end" })).toBe(false);
    expect(await revokeBuyerSession({ userId: b.user.id, sessionId: b.live.sessionId, actor: b.actor, why: "session_end" })).toBe(true);
    expect(await revokeBuyerSession({ userId: b.user.id, sessionId: b.live.sessionId, actor: b.actor, why: "session_end" })).toBe(false);
    expect(await rowsFor(a.user.email)).toHaveLength(0);
    expect(await rowsFor(b.user.email)).toHaveLength(1);
  });
});
