import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAlertChannel } from "../alerts/add-channel";
import { CLI_ACTOR, buyerActor, SYSTEM_ACTOR } from "../audit/actor";
import { db } from "../db/client";
import { updateSettings } from "../settings/update-settings";
import { makeBuyer } from "../testing/factories";
import { mailText, startSmtpSink, type SmtpSink } from "../testing/smtp-sink";
import { useTestDatabase } from "../testing/test-database";
import { requestTopUp } from "../top-ups/request-top-up";
import { inviteBuyer } from "./invite-buyer";

// Issue 24.1 with issue 25: the portal's links go out through the site's
// e-mail channel (a real SMTP server in this process), and a buyer's top-up
// request raises its operator alert in the request's own transaction.

let smtp: SmtpSink;
beforeAll(async () => {
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the SMTP server is on loopback (D29, issue 33.2)
  await useTestDatabase();
  smtp = await startSmtpSink();
  await updateSettings({ language: "en" }, { actor: SYSTEM_ACTOR });
});
afterAll(async () => smtp?.close());

describe("portal mail and top-up alert", () => {
  it("issue 24.1: without an e-mail channel the invitation is not mailed (the link is shown once instead)", async () => {
    const invited = await inviteBuyer({ email: "nomail@example.test", actor: CLI_ACTOR });
    expect(invited.emailed).toBe(false);
    expect(smtp.mails).toHaveLength(0);
  });

  it("issue 24.1/25.1: with an e-mail channel the invitation link is mailed to the buyer, once", async () => {
    await addAlertChannel(
      { kind: "email", name: "site mail", smtpUrl: smtp.url, from: "shop@example.test", to: ["ops@example.test"] },
      { actor: SYSTEM_ACTOR },
    );
    const invited = await inviteBuyer({ email: "Mailed@Example.test", actor: CLI_ACTOR });
    expect(invited.emailed).toBe(true);
    const mails = smtp.mails.filter((m) => m.to.includes("mailed@example.test"));
    expect(mails).toHaveLength(1);
    expect(mailText(mails[0].raw).replace(/\s+/g, "")).toContain(invited.inviteUrl);
  });

  it("issue 24.2/25.2: a top-up request raises one topup_request alert in its transaction, with no transfer reference", async () => {
    const { user } = await makeBuyer();
    const row = await requestTopUp({
      userId: user.id,
      input: { amount: "500.00", transferReference: "BANK-REF-SECRET-1" },
      actor: buyerActor({ userId: user.id, ip: null }),
    });
    const events = await db().alertEvent.findMany({ where: { kind: "topup_request", dedupeKey: `topup_request:${row.id}` } });
    expect(events).toHaveLength(1);
    expect(events[0].params).toMatchObject({ buyer: user.email, amount: "500.00 CNY" });
    expect(JSON.stringify(events[0].params)).not.toContain("BANK-REF");
  });
});
