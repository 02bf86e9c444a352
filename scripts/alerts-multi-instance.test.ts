import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "../lib/admins/create-admin";
import { addAlertChannel } from "../lib/alerts/add-channel";
import { setAlertRule } from "../lib/alerts/set-rule";
import { setSkuThreshold } from "../lib/alerts/set-sku-threshold";
import { db } from "../lib/db/client";
import { createOrder } from "../lib/orders/create-order";
import { startWorker, type WorkerHandle } from "../lib/worker/start-worker";
import { updateSettings } from "../lib/settings/update-settings";
import { startAppServer, type AppServer } from "../lib/testing/app-server";
import { startCallbackReceiver, waitFor, type CallbackReceiver } from "../lib/testing/callback-receiver";
import { startFakeBotApi, type FakeBotApi } from "../lib/testing/fake-bot-api";
import { cardKeysFor, makeBuyer, makeProduct } from "../lib/testing/factories";
import { signIn } from "../lib/testing/sign-in-client";
import { useTestDatabase } from "../lib/testing/test-database";
import { makeAgent, signedHttpRequest } from "./lib/signed-fetch";

// Issue 25, "Done when": each event delivered once per state change across
// TWO app instances (the real built server, each with its in-server job
// worker) and a third worker, all on one database, to a fake Telegram Bot
// API and a webhook receiver on loopback. The events fire on both instances
// at once: concurrent sales on both (a stock crossing), a burst of wrong
// passwords on both (one lock-out) and sign-ins on both (one alert each).
// With TELEGRAM_POLLING on every process, one long poll is held at a time.

const ENV = {
  WORKER_IN_SERVER: "true",
  TELEGRAM_POLLING: "true",
  CALLBACK_ALLOW_PRIVATE_NETWORKS: "true", // the receivers are on loopback
  CALLBACK_RETRY_SCHEDULE: "0.2,0.2,0.2",
  ALERT_FOLD_WINDOW_SECONDS: "1",
  ALERT_CHECK_INTERVAL_SECONDS: "1",
};
const SALES = 40;
const KEYS = 45;
const THRESHOLD = 10;
const SIGN_INS_PER_INSTANCE = 3;
const WRONG_PER_INSTANCE = 6;
const ADMIN = { email: "ops-mi@example.test", password: "correct horse battery staple mi" };
// Another account for the good sign-ins: the wrong guesses count against the first one's account.
const ADMIN2 = { email: "ops-mi-2@example.test", password: "correct horse battery staple m2" };

let apps: AppServer[] = [];
let worker: WorkerHandle | undefined;
let bot: FakeBotApi;
let hooks: CallbackReceiver;

beforeAll(async () => {
  Object.assign(process.env, ENV);
  const url = await useTestDatabase();
  [bot, hooks] = await Promise.all([startFakeBotApi(), startCallbackReceiver()]);
  await updateSettings({ language: "en" }, { actor: SYSTEM_ACTOR });
  await addAlertChannel(
    { kind: "telegram", name: "ops chat", botToken: bot.token, chatId: "-100500", apiBase: bot.origin },
    { actor: SYSTEM_ACTOR },
  );
  await addAlertChannel({ kind: "webhook", name: "ops hook", url: `${hooks.origin}/alerts` }, { actor: SYSTEM_ACTOR });
  await createAdmin({ email: ADMIN.email, password: ADMIN.password }, { actor: SYSTEM_ACTOR });
  await createAdmin({ email: ADMIN2.email, password: ADMIN2.password }, { actor: SYSTEM_ACTOR });
  apps = await Promise.all([startAppServer(url, ENV), startAppServer(url, ENV)]);
  worker = await startWorker({ connectionString: url, concurrency: 2, pollIntervalMs: 100 });
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await Promise.all(apps.map((a) => a.stop()));
  await Promise.all([bot?.close(), hooks?.close()]);
});

/** The webhook's alerts of one kind: each message stands for itself and `more` folded ones. */
function hookCount(kind: string) {
  const bodies = hooks.received.map((r) => JSON.parse(r.body) as { kind: string; more: number }).filter((b) => b.kind === kind);
  return { messages: bodies.length, events: bodies.reduce((n, b) => n + 1 + b.more, 0) };
}

/** The same from the Telegram messages, by their title. */
function botCount(title: string) {
  const texts = bot.messages.map((m) => m.text).filter((t) => t.includes(title));
  return { messages: texts.length, events: texts.reduce((n, t) => n + 1 + Number(/and (\d+) more/.exec(t)?.[1] ?? 0), 0) };
}

async function settled() {
  // Every delivery reached a final state on both channels, then nothing more arrives for a while.
  await waitFor(async () => (await db().alertDelivery.count({ where: { status: "pending" } })) === 0, 60_000, 100);
  await new Promise((r) => setTimeout(r, 3000));
  expect(await db().alertDelivery.count({ where: { status: { notIn: ["sent", "folded"] } } })).toBe(0);
}

describe("issue 25: alerts across two app instances and a worker", () => {
  it("issue 25 Done when: each event kind is delivered once per state change across two instances and a worker, when events fire on both at once", async () => {
    // 0. A manual order waiting past its 30 minutes and the day's summary (hour 0), which the periodic
    //    checks of all three processes see at once: one alert each.
    const manual = await makeProduct({ fulfillmentType: "manual", stockQuantity: 100, priceCents: 1234n });
    const waiting = await makeBuyer({ pointsCents: 100_000n });
    const { order } = await createOrder({
      credential: { id: waiting.id, userId: waiting.user.id },
      profile: "P",
      input: { downstreamOrderNo: "MI-WAIT-1", skuId: manual.sku.id, quantity: 1, manualFormData: {} },
    });
    await db().order.update({ where: { id: order.id }, data: { createdAt: new Date(Date.now() - 31 * 60_000) } });
    await setAlertRule({ event: "daily_summary", threshold: 0 }, { actor: SYSTEM_ACTOR });

    // 1. Sales on both instances at once cross the SKU's threshold: one stock_low.
    const { sku } = await makeProduct({ cardKeys: cardKeysFor("MI-ALERT", KEYS) });
    await setSkuThreshold({ skuCode: sku.skuCode, stock: THRESHOLD }, { actor: SYSTEM_ACTOR });
    // The check has seen the SKU above its threshold (the check is periodic: a first sight taken
    // between the SKU's creation and its keys' count reads it as low, until the next check).
    await waitFor(async () => (await db().alertCondition.count({ where: { key: `stock:${sku.id}`, active: false } })) === 1, 30_000, 100);
    const buyers = await Promise.all(Array.from({ length: 8 }, () => makeBuyer({ pointsCents: 100_000n })));
    const agent = makeAgent(SALES);
    const sales = await Promise.all(
      Array.from({ length: SALES }, (_, i) =>
        signedHttpRequest(
          agent,
          buyers[i % buyers.length],
          new URL(`${apps[i % 2].baseUrl}/api/v1/upstream/orders`),
          "POST",
          JSON.stringify({ downstream_order_no: `MI-ALERT-${i}`, sku_id: sku.id, quantity: 1 }),
        ),
      ),
    );
    agent.destroy();
    expect(sales.map((r) => r.status)).toEqual(Array(SALES).fill(200));

    // 2. Wrong passwords from one address on both instances at once: one lock-out, one alert.
    const wrong = await Promise.all(
      Array.from({ length: WRONG_PER_INSTANCE * 2 }, (_, i) =>
        signIn(apps[i % 2].baseUrl, { email: ADMIN.email, password: "wrong password", from: "127.0.0.7" }),
      ),
    );
    expect(wrong.every((r) => r.error !== null)).toBe(true);

    // 3. Sign-ins from new browsers on both instances at once: one alert each.
    const good = await Promise.all(
      Array.from({ length: SIGN_INS_PER_INSTANCE * 2 }, (_, i) => signIn(apps[i % 2].baseUrl, { ...ADMIN2, from: `127.0.0.${20 + i}` })),
    );
    expect(good.every((r) => r.error === null && r.session)).toBe(true);

    await waitFor(async () => (await db().alertEvent.count({ where: { kind: "stock_low" } })) === 1, 30_000, 100);
    await waitFor(
      async () => (await db().alertEvent.count({ where: { kind: { in: ["order_manual_wait", "daily_summary"] } } })) === 2,
      30_000,
      100,
    );
    await settled();
    const events = Object.fromEntries(
      (await db().alertEvent.groupBy({ by: ["kind"], _count: { _all: true } })).map((g) => [g.kind, g._count._all]),
    );
    expect(events).toMatchObject({ stock_low: 1, admin_locked: 1, admin_new_device: SIGN_INS_PER_INSTANCE * 2 });
    expect(await db().alertEvent.count({ where: { kind: "order_manual_wait" } })).toBe(1);
    expect(await db().alertEvent.count({ where: { kind: "daily_summary" } })).toBe(1);
    expect(hookCount("order_manual_wait").events).toBe(1);
    expect(hookCount("daily_summary").events).toBe(1);
    // One delivery per event and channel, and the messages account for each event exactly once.
    const channels = await db().alertChannel.count({ where: { deletedAt: null } });
    expect(await db().alertDelivery.count()).toBe(Object.values(events).reduce((a, b) => a + b, 0) * channels);
    expect(hookCount("stock_low").events).toBe(1);
    expect(hookCount("admin_locked").events).toBe(1);
    expect(hookCount("admin_new_device").events).toBe(SIGN_INS_PER_INSTANCE * 2);
    expect(botCount("Stock low").events).toBe(1);
    expect(botCount("Administrator locked out").events).toBe(1);
    // Of the kinds this test fires: others may come on their own (the daily summary after its hour, a slow queue on a loaded machine).
    const fired = hooks.received
      .map((r) => JSON.parse(r.body) as { kind: string; more: number })
      .filter((b) => ["stock_low", "admin_locked", "admin_new_device"].includes(b.kind));
    expect(hookCount("stock_low").events + hookCount("admin_locked").events + hookCount("admin_new_device").events).toBe(
      fired.length + fired.reduce((n, b) => n + b.more, 0),
    );

    // Issue 25.4 across processes: three pollers (two instances, one worker), one held getUpdates, no 409.
    await waitFor(() => bot.polls.length >= 1, 30_000, 100);
    expect(bot.conflicts).toBe(0);
    expect(bot.polls.every((p) => p.timeout === 25)).toBe(true);
    console.log(
      JSON.stringify({
        issue25_multi_instance: {
          events,
          messages: { telegram: bot.messages.length, webhook: hooks.received.length },
          polls: bot.polls.length,
        },
      }),
    );
  });

  it("issue 25.4: SIGTERM to the process holding the Telegram long poll stops it at once and cleanly; another process takes the poll over, no 409", async () => {
    const holds = "this process holds the long poll";
    const holder = apps.find((a) => a.output().includes(holds));
    const pollsBefore = bot.polls.length;
    const t0 = Date.now();
    if (holder) await holder.stop();
    else await worker!.stop(); // the third worker in this process held it
    const stopMs = Date.now() - t0;
    // The held getUpdates (25 s) is aborted, not waited for; app-server.ts would SIGKILL at 5 s.
    expect(stopMs).toBeLessThan(4000);
    if (holder) expect(holder.output()).toContain("stopped cleanly");
    await waitFor(() => bot.polls.length > pollsBefore, 20_000, 100);
    expect(bot.conflicts).toBe(0);
    console.log(JSON.stringify({ issue25_poll_handover: { holder: holder ? "app" : "worker", stop_ms: stopMs } }));
  });
});
