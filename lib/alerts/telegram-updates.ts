import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { env } from "../config/env";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { AppError } from "../errors";
import { recheckUpstreamPurchase } from "../upstream/recheck-upstream-purchase";
import { callBotApi, DEFAULT_TELEGRAM_API } from "./channels/telegram";
import { RECHECK_PREFIX } from "./telegram-buttons";

// Issue 25.4: the presses of a review alert's "check upstream again" button
// reach us as Telegram updates. With TELEGRAM_POLLING=true the alert checks
// poll getUpdates for each Telegram channel, one poller per bot at a time
// (an advisory lock; the offset is stored with the channel, so an update is
// handled once). A press acts only for a Telegram user bound to an active
// administrator (alerts:telegram:bind) and then as that administrator;
// every press, allowed or not, leaves an audit row. Updates are hostile
// input: checked with zod, anything else is skipped.

const UpdateSchema = z.object({
  update_id: z.number().int().nonnegative(),
  callback_query: z
    .object({ id: z.string().max(200), from: z.object({ id: z.number().int() }), data: z.string().max(64).optional() })
    .optional(),
});
const ORDER_NO = /^[A-Za-z0-9_-]{1,60}$/;

export async function pollTelegramUpdates(): Promise<number> {
  if (!env().TELEGRAM_POLLING) return 0;
  const channels = await db().alertChannel.findMany({ where: { kind: "telegram", deletedAt: null }, select: { id: true } });
  let handled = 0;
  for (const { id } of channels) handled += await pollChannel(id);
  return handled;
}

async function pollChannel(channelId: number): Promise<number> {
  return db().$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<
        { locked: boolean }[]
      >`SELECT pg_try_advisory_xact_lock(hashtext(${`telegram-poll:${channelId}`})) AS locked`;
      if (!locked) return 0; // another worker polls this bot now
      const ch = await tx.alertChannel.findUniqueOrThrow({ where: { id: channelId } });
      const token = (JSON.parse(decryptText(ch.secretCiphertext)) as { botToken?: string }).botToken ?? "";
      const apiBase = String((ch.config as { apiBase?: string }).apiBase || DEFAULT_TELEGRAM_API);
      const answer = await callBotApi(apiBase, token, "getUpdates", {
        offset: Number(ch.updateOffset),
        timeout: 0,
        allowed_updates: ["callback_query"],
      });
      if (!answer.ok || !Array.isArray(answer.result)) return 0;
      let next = Number(ch.updateOffset);
      let handled = 0;
      for (const raw of answer.result.slice(0, 100)) {
        const id = (raw as { update_id?: unknown })?.update_id;
        // A malformed update is still consumed (else it would come back forever).
        if (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) next = Math.max(next, id + 1);
        const u = UpdateSchema.safeParse(raw);
        if (!u.success) continue;
        const q = u.data.callback_query;
        if (!q) continue;
        const text = await handlePress(tx, channelId, q);
        await callBotApi(apiBase, token, "answerCallbackQuery", { callback_query_id: q.id, text });
        handled++;
      }
      await tx.alertChannel.update({ where: { id: channelId }, data: { updateOffset: BigInt(next) } });
      return handled;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

/** One press: who, what, allowed or not; returns the short answer Telegram shows the presser. */
async function handlePress(tx: Tx, channelId: number, q: { from: { id: number }; data?: string }): Promise<string> {
  const telegramUserId = String(q.from.id);
  const orderNo = q.data?.startsWith(RECHECK_PREFIX) ? q.data.slice(RECHECK_PREFIX.length) : null;
  const binding = await tx.alertTelegramBinding.findUnique({
    where: { telegramUserId },
    include: { adminUser: { select: { id: true, isActive: true } } },
  });
  const admin = binding?.adminUser.isActive ? binding.adminUser : null;
  const actor: Actor = admin ? { kind: "admin", id: admin.id } : { kind: "system" };
  let outcome: string;
  if (!admin) outcome = "not allowed: this Telegram user is not bound to an administrator";
  else if (!orderNo || !ORDER_NO.test(orderNo)) outcome = "unknown button";
  else {
    try {
      await recheckUpstreamPurchase({ orderNo, actor });
      outcome = `check of order ${orderNo} queued`;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcome = err.publicMessage;
    }
  }
  await writeAuditLog(tx, {
    actor,
    action: "alert.telegram.press",
    targetType: "alert_channel",
    targetId: String(channelId),
    details: {
      telegramUserId,
      button: orderNo === null ? "unknown" : "recheck",
      orderNo: orderNo && ORDER_NO.test(orderNo) ? orderNo : null,
      allowed: !!admin,
      outcome,
    },
  });
  return outcome.slice(0, 190);
}
