import { SYSTEM_ACTOR } from "../audit/actor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "../admins/create-admin";
import { db } from "../db/client";
import { transitionOrder } from "../fulfillment/transition-order";
import { createOrder } from "../orders/create-order";
import { startFakeBotApi, type FakeBotApi } from "../testing/fake-bot-api";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { addAlertChannel } from "./add-channel";
import { bindTelegramUser } from "./bind-telegram-user";
import { deliverAlertNow } from "./deliver-alert-now";
import { encryptText } from "../crypto/secret-box";
import { waitFor } from "../testing/callback-receiver";
import { startTelegramPoller, type TelegramPoller } from "./telegram-poller";
import { handleTelegramUpdates, telegramChannels } from "./telegram-updates";

// Issue 25.4: a review alert's inline buttons on Telegram, pressed through
// the fake Bot API's getUpdates: only a bound administrator's press acts,
// every press is audited, each update is handled once. Two pollers (as two
// worker processes run them, each with its own database session) share ONE
// held long poll: the fake answers 409 to a second getUpdates, as Telegram does.

let bot: FakeBotApi;
let pollers: TelegramPoller[] = [];
let url: string;
const ADMIN_TG = 777_001;
const STRANGER_TG = 999_002;

beforeAll(async () => {
  process.env.TELEGRAM_POLLING = "true";
  process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS = "true"; // the fake Bot API is on loopback (D29, issue 33.2)
  process.env.ALERT_FOLD_WINDOW_SECONDS = "1";
  url = await useTestDatabase();
  bot = await startFakeBotApi();
  await addAlertChannel({ kind: "telegram", botToken: bot.token, chatId: "-100777", apiBase: bot.origin }, { actor: SYSTEM_ACTOR });
  await createAdmin({ email: "tg-admin@example.test", password: "correct horse battery staple 25" }, { actor: SYSTEM_ACTOR });
  await bindTelegramUser({ email: "tg-admin@example.test", telegramUserId: String(ADMIN_TG) }, { actor: SYSTEM_ACTOR });
});
afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  await bot?.close();
});

describe("issue 25.4: Telegram inline buttons", () => {
  it("issue 25.4: a review alert carries the recheck button; a bound administrator's press acts as them, a stranger's is refused; both audited; each update once", async () => {
    const buyer = await makeBuyer();
    const { sku } = await makeProduct({ fulfillmentType: "manual", stockQuantity: 5 });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "P",
      input: { downstreamOrderNo: `TG-${Date.now()}`, skuId: sku.id, quantity: 1 },
    });
    await db().$transaction((tx) => transitionOrder(tx, order.id, { to: "unknown_review" }));
    const event = await db().alertEvent.findUniqueOrThrow({ where: { dedupeKey: `order_review:${order.id}` } });
    await deliverAlertNow(event.id);
    const message = bot.messages.find((m) => m.text.includes(order.orderNo))!;
    expect(message.reply_markup?.inline_keyboard?.[0]?.[0]).toMatchObject({ callback_data: `recheck:${order.orderNo}` });

    bot.updates.push(
      press(10, "q-admin", ADMIN_TG, `recheck:${order.orderNo}`),
      press(11, "q-stranger", STRANGER_TG, `recheck:${order.orderNo}`),
      { update_id: 12, callback_query: { id: 5, from: "not an object" } }, // hostile: skipped
    );
    pollers = [startTelegramPoller(url, { pollSeconds: 2, retryMs: 200 }), startTelegramPoller(url, { pollSeconds: 2, retryMs: 200 })];
    await waitFor(() => bot.answered.length >= 2, 15_000, 50);
    const answers = Object.fromEntries(bot.answered.map((x) => [x.callback_query_id, x.text]));
    // A manual order has no upstream purchase to check: the service refuses, in its own words.
    expect(answers["q-admin"]).toMatch(/has no upstream purchase to check/);
    expect(answers["q-stranger"]).toMatch(/not allowed/);
    const presses = await db().auditLog.findMany({ where: { action: "alert.telegram.press" }, orderBy: { id: "asc" } });
    expect(presses.map((p) => [p.actor, (p.details as { allowed: boolean }).allowed])).toEqual([
      ["tg-admin@example.test", true],
      ["system", false],
    ]);

    // Held long polls, one at a time: the offset moves past the hostile update, no 409 from two pollers.
    await waitFor(() => bot.polls.some((p) => p.offset === 13 && p.timeout === 2), 10_000, 50);
    await new Promise((r) => setTimeout(r, 2500)); // a held poll runs out and the next is sent
    expect(bot.conflicts).toBe(0);
    expect(bot.polls.filter((p) => p.offset === 13).length).toBeLessThanOrEqual(3); // held, not a short poll per check
    // The same updates handed out again (a crash before Telegram learnt the offset): nothing handled twice.
    const [ch] = await telegramChannels();
    expect(await handleTelegramUpdates({ ...ch, offset: 10 }, bot.updates)).toBe(0);
    expect(bot.answered).toHaveLength(2);
  });

  it("issue 25.4: a repeated press of 'check upstream again' changes nothing the second time; the poll stops cleanly", async () => {
    const buyer = await makeBuyer();
    const { sku } = await makeProduct({ fulfillmentType: "upstream", stockQuantity: 5 });
    const { order } = await createOrder({
      credential: { id: buyer.id, userId: buyer.user.id },
      profile: "P",
      input: { downstreamOrderNo: `TG2-${Date.now()}`, skuId: sku.id, quantity: 1 },
    });
    const conn = await db().upstreamConnection.create({
      data: { name: "tg", baseUrl: "http://127.0.0.1:9", profile: "P", apiKey: "k", secretCiphertext: encryptText("s"), maxWaitSeconds: 1 },
    });
    await db().upstreamPurchase.create({
      data: {
        orderId: order.id,
        connectionId: conn.id,
        downstreamOrderNo: order.orderNo,
        upstreamSkuId: 1,
        status: "unknown",
        deadlineAt: new Date(),
      },
    });
    await db().$transaction((tx) => transitionOrder(tx, order.id, { to: "unknown_review" }));
    const jobsBefore = await rechecks(order.orderNo);

    const data = `recheck:${order.orderNo}`;
    bot.updates.push(press(20, "q-first", ADMIN_TG, data));
    await waitFor(() => bot.answered.some((a) => a.callback_query_id === "q-first"), 15_000, 50);
    bot.updates.push(press(21, "q-again", ADMIN_TG, data));
    await waitFor(() => bot.answered.some((a) => a.callback_query_id === "q-again"), 15_000, 50);
    const text = Object.fromEntries(bot.answered.map((x) => [x.callback_query_id, x.text]));
    expect(text["q-first"]).toBe(`check of order ${order.orderNo} queued`);
    expect(text["q-again"]).toBe(`check of order ${order.orderNo} already queued`);
    expect(await rechecks(order.orderNo)).toEqual({ audits: jobsBefore.audits + 1, jobs: 1 });
    expect(await db().auditLog.count({ where: { action: "alert.telegram.press", actor: "tg-admin@example.test" } })).toBe(3);

    // Clean stop: the held request is given up at once and the lock released (a third poller takes over).
    const t0 = Date.now();
    await Promise.all(pollers.map((p) => p.stop()));
    expect(Date.now() - t0).toBeLessThan(1500);
    const locks = await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = hashtext('cardkey:telegram-poller')::oid`;
    expect(locks[0].n).toBe(0);
    pollers = [startTelegramPoller(url, { pollSeconds: 2, retryMs: 200 })];
    bot.updates.push(press(22, "q-later", STRANGER_TG, data));
    await waitFor(() => bot.answered.some((a) => a.callback_query_id === "q-later"), 15_000, 50);
    expect(bot.conflicts).toBe(0);
  });
});

const press = (updateId: number, id: string, from: number, data: string) => ({
  update_id: updateId,
  callback_query: { id, from: { id: from, is_bot: false, first_name: "x" }, data },
});

async function rechecks(orderNo: string) {
  const audits = await db().auditLog.count({ where: { action: "order.upstream_recheck", targetId: orderNo } });
  const [{ n }] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN "UpstreamPurchase" u ON j."key" = 'upstream:' || u."id"
    JOIN "Order" o ON o."id" = u."orderId" WHERE o."orderNo" = ${orderNo}`;
  return { audits, jobs: n };
}
