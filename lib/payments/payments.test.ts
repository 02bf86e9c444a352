import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, SYSTEM_ACTOR } from "@/lib/audit/actor";
import { db } from "@/lib/db/client";
import { reconcilePoints } from "@/lib/points/reconcile-points";
import { updateSettings } from "@/lib/settings/update-settings";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { startLoopbackServer, type LoopbackServer } from "@/lib/testing/loopback-server";
import { useTestDatabase } from "@/lib/testing/test-database";
import { signedInBuyer, startPayment } from "@/lib/testing/portal-buyer";
import { addChannel } from "./add-channel";
import { ChannelInputSchema } from "./channel-input";
import { confirmPayment } from "./confirm-payment";
import { md5Sign } from "./drivers/signing";
import { pollOpenPayments } from "./poll-open-payments";

// Issue 36 (decision 0089), over real HTTP to the real handlers: the portal
// creates payments, a local HTTP server speaks the epay protocol (its
// api.php answers the active query), and notifies signed by the epay rule
// go to the notify route of two app servers on one database.

const SLOW = 300_000;
const KEY = "merchant-key-0123456789";
const PID = "1001";
let A: AppServer;
let B: AppServer;
let gateway: LoopbackServer;
let channelId: number;
let otherChannelId: number;
/** What the fake gateway's api.php knows: out_trade_no → the order it answers. */
const gatewayOrders = new Map<string, { trade_no: string; money: string; status: 0 | 1 }>();

beforeAll(async () => {
  const url = await useTestDatabase();
  gateway = await startLoopbackServer((req, _body, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const order = gatewayOrders.get(u.searchParams.get("out_trade_no") ?? "");
    res.setHeader("content-type", "application/json");
    if (u.pathname !== "/api.php" || u.searchParams.get("key") !== KEY || !order)
      return res.end(JSON.stringify({ code: -1, msg: "no order" }));
    res.end(JSON.stringify({ code: 1, pid: PID, out_trade_no: u.searchParams.get("out_trade_no"), type: "alipay", name: "x", ...order }));
  });
  [A, B] = await Promise.all([startAppServer(url), startAppServer(url)]);
  await updateSettings({ public_base_url: A.baseUrl }, { actor: SYSTEM_ACTOR });
  const epay = (name: string) =>
    ChannelInputSchema.parse({ driver: "epay", name, gatewayUrl: gateway.origin, merchantId: PID, key: KEY, min: "1.00", max: "500.00" });
  channelId = (await addChannel({ input: epay("epay-main"), actor: CLI_ACTOR })).id;
  otherChannelId = (await addChannel({ input: epay("epay-other"), actor: CLI_ACTOR })).id;
}, SLOW);
afterAll(async () => {
  await Promise.all([A?.stop(), B?.stop(), gateway?.close()]);
});

const portalBuyer = () => signedInBuyer(A);
const pay = (cookie: string, body: object) => startPayment(A, cookie, body);

/** The fields of an epay notify, signed as the gateway signs them (or with `overrides` applied after signing). */
function epayNotify(paymentNo: string, money: string, extra: Record<string, string> = {}, overrides: Record<string, string | null> = {}) {
  const fields: Record<string, string> = {
    pid: PID,
    trade_no: `T${paymentNo}`,
    out_trade_no: paymentNo,
    type: "alipay",
    name: `Top-up ${paymentNo}`,
    money,
    trade_status: "TRADE_SUCCESS",
    ...extra,
  };
  const signed: Record<string, string> = { ...fields, sign: md5Sign(fields, KEY, ["sign", "sign_type"]), sign_type: "MD5" };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete signed[k];
    else signed[k] = v;
  }
  return signed;
}

async function notify(server: AppServer, fields: Record<string, string>, { channel = channelId, as = "GET" } = {}) {
  const q = new URLSearchParams(fields).toString();
  const url = `${server.baseUrl}/api/payments/notify/${channel}`;
  const res =
    as === "GET"
      ? await fetch(`${url}?${q}`)
      : await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: q });
  return { status: res.status, body: await res.text() };
}

const balance = async (userId: string) => (await db().user.findUniqueOrThrow({ where: { id: userId } })).balanceCents;
const credits = (paymentNo: string) => db().pointsLedger.count({ where: { payment: { paymentNo } } });
const stateOf = async (paymentNo: string) => (await db().payment.findUniqueOrThrow({ where: { paymentNo } })).state;

describe("issue 36: top-ups through an epay gateway", { timeout: SLOW }, () => {
  it("creates a payment through the portal (written before the gateway, then pending with the gateway's page); limits, decimals and the open-payment cap refuse with nothing written", async () => {
    const b = await portalBuyer();
    const ok = await pay(b.cookie, { channel_id: channelId, amount: "10.00" });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ ok: true, state: "pending", amount: "10.00" });
    const payUrl = new URL(ok.json.pay_url);
    expect(payUrl.origin + payUrl.pathname).toBe(`${gateway.origin}/submit.php`);
    expect(payUrl.searchParams.get("out_trade_no")).toBe(ok.json.payment_no);
    expect(payUrl.searchParams.get("notify_url")).toBe(`${A.baseUrl}/api/payments/notify/${channelId}`);
    // The pay URL is signed by the epay rule (the gateway checks it).
    const form = Object.fromEntries([...payUrl.searchParams].filter(([k]) => k !== "sign" && k !== "sign_type"));
    expect(payUrl.searchParams.get("sign")).toBe(md5Sign(form, KEY, []));
    const before = await db().payment.count({ where: { userId: b.user.id } });
    for (const [body, status] of [
      [{ channel_id: channelId, amount: "0.99" }, 400],
      [{ channel_id: channelId, amount: "500.01" }, 400],
      [{ channel_id: channelId, amount: "10.001" }, 400],
      [{ channel_id: channelId, amount: 10 }, 400],
      [{ channel_id: 999_999, amount: "10.00" }, 404],
      [{ channel_id: "x", amount: "10.00" }, 400],
    ] as const) {
      expect((await pay(b.cookie, body)).status, JSON.stringify(body)).toBe(status);
    }
    expect(await db().payment.count({ where: { userId: b.user.id } })).toBe(before);
    // Ten open at once: the eleventh is refused, also when asked in parallel.
    const many = await Promise.all(Array.from({ length: 12 }, () => pay(b.cookie, { channel_id: channelId, amount: "1.00" })));
    expect(many.filter((r) => r.status === 200)).toHaveLength(9);
    expect(many.filter((r) => r.status === 409)).toHaveLength(3);
    expect(await db().payment.count({ where: { userId: b.user.id, state: "pending" } })).toBe(10);
    // The create rate: 20 in 10 minutes, counted in the database (whichever instance is asked).
    await db().payment.updateMany({ where: { userId: b.user.id }, data: { state: "expired" } });
    const more = await Promise.all(
      Array.from({ length: 10 }, (_, i) => startPayment(i % 2 ? B : A, b.cookie, { channel_id: channelId, amount: "1.00" })),
    );
    expect(more.map((r) => r.status)).toEqual(Array(10).fill(200));
    const limited = await pay(b.cookie, { channel_id: channelId, amount: "1.00" });
    expect([limited.status, limited.json.code]).toEqual([429, "rate_limited"]);
    expect(await db().payment.count({ where: { userId: b.user.id } })).toBe(20);
  });

  it("a signed TRADE_SUCCESS notify credits once: 20 identical notifies in parallel across two instances, GET and form POST, each answered success", async () => {
    const b = await portalBuyer();
    const { json } = await pay(b.cookie, { channel_id: channelId, amount: "12.30" });
    const fields = epayNotify(json.payment_no, "12.3"); // "12.3" equals "12.30"
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => notify(i % 2 ? B : A, fields, { as: i % 4 < 2 ? "GET" : "POST" })),
    );
    expect(answers.map((a) => `${a.status} ${a.body}`)).toEqual(Array(20).fill("200 success"));
    expect(await credits(json.payment_no)).toBe(1);
    expect(await balance(b.user.id)).toBe(1230n);
    expect(await stateOf(json.payment_no)).toBe("paid");
    // A repeat later changes nothing and is still success.
    expect(await notify(A, fields)).toEqual({ status: 200, body: "success" });
    expect(await balance(b.user.id)).toBe(1230n);
    // The statement lists it as a topup row with its number (both the wire and the portal's read).
    const statement = await db().pointsLedger.findFirstOrThrow({ where: { userId: b.user.id }, include: { payment: true } });
    expect(statement.payment?.paymentNo).toBe(json.payment_no);
    // The notifies are kept without their signature.
    const kept = await db().paymentNotify.findMany({ where: { payment: { paymentNo: json.payment_no } } });
    expect(kept).toHaveLength(21);
    expect(JSON.stringify(kept.map((k) => k.fields))).not.toContain(fields.sign);
    expect(kept.filter((k) => k.outcome === "credited")).toHaveLength(1);
  });

  it("refuses with nothing credited: bad, missing or upper-cased signature, another merchant, not paid, amount lower or higher, unknown number, another channel's payment, a reference already used", async () => {
    const b = await portalBuyer();
    const { json } = await pay(b.cookie, { channel_id: channelId, amount: "20.00" });
    const no = json.payment_no;
    const paidOther = await pay(b.cookie, { channel_id: channelId, amount: "5.00" });
    const used = `USED-${paidOther.json.payment_no}`;
    expect((await notify(A, epayNotify(paidOther.json.payment_no, "5.00", { trade_no: used }))).body).toBe("success");
    const refusals: [string, Record<string, string>, number?][] = [
      ["bad signature", epayNotify(no, "20.00", {}, { sign: "0".repeat(32) })],
      ["no signature", epayNotify(no, "20.00", {}, { sign: null })],
      ["upper-cased signature", epayNotify(no, "20.00", {}, { sign: epayNotify(no, "20.00").sign.toUpperCase() })],
      ["another merchant", epayNotify(no, "20.00", { pid: "2002" })],
      ["not paid", epayNotify(no, "20.00", { trade_status: "WAIT_BUYER_PAY" })],
      ["amount lower", epayNotify(no, "19.99")],
      ["amount higher", epayNotify(no, "20.01")],
      ["not an amount", epayNotify(no, "20.00.0")],
      ["unknown number", epayNotify("TP20260101NOSUCHPAYMENT", "20.00")],
      ["another channel", epayNotify(no, "20.00"), otherChannelId],
      ["reference used by another payment", epayNotify(no, "20.00", { trade_no: used })],
    ];
    for (const [what, fields, channel] of refusals) {
      const r = await notify(A, fields, { channel: channel ?? channelId });
      expect(r.status, what).toBe(400);
      expect(r.body, what).not.toBe("success");
    }
    expect(await stateOf(no)).toBe("pending");
    expect(await credits(no)).toBe(0);
    expect(await balance(b.user.id)).toBe(500n);
    // The browser's return URL shows the state and credits nothing.
    expect((await fetch(`${A.baseUrl}/portal/top-ups/${no}?trade_status=TRADE_SUCCESS`, { headers: { cookie: b.cookie } })).status).toBe(
      200,
    );
    expect(await credits(no)).toBe(0);
    // A notify for a channel that does not exist, and garbage, are refused too.
    expect((await notify(A, epayNotify(no, "20.00"), { channel: 2_147_483_647 })).status).toBe(404);
    expect((await fetch(`${A.baseUrl}/api/payments/notify/${channelId}`, { method: "POST", body: "\u0000{]" })).status).toBe(400);
    expect(await reconcilePoints()).toMatchObject({ ok: true, paymentMismatches: [] });
  });

  it("a notify that arrives before the create finished is answered 'retry' and credited when sent again; a paid notify for an expired payment goes to review with an alert, never credited", async () => {
    const b = await portalBuyer();
    const early = await db().payment.create({
      data: {
        paymentNo: "TP20261128EARLY0000001",
        channelId,
        userId: b.user.id,
        amountCents: 700n,
        currency: "CNY",
        expiresAt: new Date(Date.now() + 600_000),
      },
    });
    expect(await notify(A, epayNotify(early.paymentNo, "7.00"))).toEqual({ status: 503, body: "retry" });
    expect(await credits(early.paymentNo)).toBe(0);
    await db().payment.update({ where: { id: early.id }, data: { state: "pending" } });
    expect((await notify(B, epayNotify(early.paymentNo, "7.00"))).body).toBe("success");
    expect(await credits(early.paymentNo)).toBe(1);

    const { json } = await pay(b.cookie, { channel_id: channelId, amount: "8.00" });
    await db().payment.update({ where: { paymentNo: json.payment_no }, data: { state: "expired" } });
    expect((await notify(A, epayNotify(json.payment_no, "8.00"))).body).toBe("success");
    expect(await stateOf(json.payment_no)).toBe("review");
    expect(await credits(json.payment_no)).toBe(0);
    expect(await db().alertEvent.count({ where: { kind: "payment_review", dedupeKey: `payment_review:${json.payment_no}` } })).toBe(1);
    // An operator checks at the gateway and confirms by hand: credited once; a second confirmation is refused.
    await confirmPayment({ input: { paymentNo: json.payment_no, reference: "T-CHECKED" }, actor: CLI_ACTOR });
    await expect(confirmPayment({ input: { paymentNo: json.payment_no, reference: "T-CHECKED" }, actor: CLI_ACTOR })).rejects.toThrow(
      /already paid/,
    );
    expect(await credits(json.payment_no)).toBe(1);
    expect(await balance(b.user.id)).toBe(1500n);
    expect(await db().auditLog.count({ where: { action: "payment.confirm", targetId: json.payment_no } })).toBe(1);
  });

  it("a lost notify is found by the active query and credited once; a late notify and a notify racing the query change nothing more; an unpaid payment past its expiry is expired after a last query", async () => {
    const b = await portalBuyer();
    const lost = (await pay(b.cookie, { channel_id: channelId, amount: "3.00" })).json.payment_no;
    const raced = (await pay(b.cookie, { channel_id: channelId, amount: "4.00" })).json.payment_no;
    const unpaid = (await pay(b.cookie, { channel_id: channelId, amount: "6.00" })).json.payment_no;
    gatewayOrders.set(lost, { trade_no: `T${lost}`, money: "3.00", status: 1 });
    gatewayOrders.set(raced, { trade_no: `T${raced}`, money: "4.00", status: 1 });
    gatewayOrders.set(unpaid, { trade_no: `T${unpaid}`, money: "6.00", status: 0 });
    await db().payment.update({ where: { paymentNo: unpaid }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const [polled, ...racing] = await Promise.all([
      pollOpenPayments(),
      ...Array.from({ length: 5 }, () => notify(A, epayNotify(raced, "4.00"))),
    ]);
    expect(polled.expired).toBeGreaterThanOrEqual(1);
    expect(racing.map((r) => r.body)).toEqual(Array(5).fill("success"));
    expect(await stateOf(lost)).toBe("paid");
    expect(await stateOf(raced)).toBe("paid");
    expect(await stateOf(unpaid)).toBe("expired");
    expect((await db().payment.findUniqueOrThrow({ where: { paymentNo: unpaid } })).lastQueryAnswer).toMatchObject({ paid: false });
    expect((await notify(B, epayNotify(lost, "3.00"))).body).toBe("success");
    expect([await credits(lost), await credits(raced), await credits(unpaid)]).toEqual([1, 1, 0]);
    expect(await balance(b.user.id)).toBe(700n);
    expect(await reconcilePoints()).toMatchObject({ ok: true, paymentMismatches: [] });
  });
});
