import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "../admins/create-admin";
import { db } from "../db/client";
import { transitionOrder } from "../fulfilment/transition-order";
import { createOrder } from "../orders/create-order";
import { startFakeBotApi, type FakeBotApi } from "../testing/fake-bot-api";
import { makeBuyer, makeProduct } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { addAlertChannel } from "./add-channel";
import { bindTelegramUser } from "./bind-telegram-user";
import { deliverAlertNow } from "./deliver-alert-now";
import { pollTelegramUpdates } from "./telegram-updates";

// Issue 25.4: a review alert's inline buttons on Telegram, pressed through
// the fake Bot API's getUpdates: only a bound administrator's press acts,
// every press is audited, each update is handled once.

let bot: FakeBotApi;
const ADMIN_TG = 777_001;
const STRANGER_TG = 999_002;

beforeAll(async () => {
  process.env.TELEGRAM_POLLING = "true";
  process.env.ALERT_FOLD_WINDOW_SECONDS = "1";
  await useTestDatabase();
  bot = await startFakeBotApi();
  await addAlertChannel({ kind: "telegram", botToken: bot.token, chatId: "-100777", apiBase: bot.origin });
  await createAdmin({ email: "tg-admin@example.test", password: "correct horse battery staple 25" });
  await bindTelegramUser({ email: "tg-admin@example.test", telegramUserId: String(ADMIN_TG) });
});
afterAll(async () => {
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

    const press = (updateId: number, id: string, from: number, data: string) => ({
      update_id: updateId,
      callback_query: { id, from: { id: from, is_bot: false, first_name: "x" }, data },
    });
    bot.updates.push(
      press(10, "q-admin", ADMIN_TG, `recheck:${order.orderNo}`),
      press(11, "q-stranger", STRANGER_TG, `recheck:${order.orderNo}`),
      { update_id: 12, callback_query: { id: 5, from: "not an object" } }, // hostile: skipped
    );
    const [a, b] = await Promise.all([pollTelegramUpdates(), pollTelegramUpdates()]);
    expect(a + b).toBe(2); // one poller at a time: the other found the lock taken
    const answers = Object.fromEntries(bot.answered.map((x) => [x.callback_query_id, x.text]));
    // A manual order has no upstream purchase to check: the service refuses, in its own words.
    expect(answers["q-admin"]).toMatch(/has no upstream purchase to check/);
    expect(answers["q-stranger"]).toMatch(/not allowed/);

    const presses = await db().auditLog.findMany({ where: { action: "alert.telegram.press" }, orderBy: { id: "asc" } });
    expect(presses.map((p) => [p.actor, (p.details as { allowed: boolean }).allowed])).toEqual([
      ["tg-admin@example.test", true],
      ["system", false],
    ]);

    expect(await pollTelegramUpdates()).toBe(0);
    expect(bot.polls.at(-1)!.offset).toBe(13);
  });
});
