import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import type { Tx } from "../db/tx";
import { AppError } from "../errors";
import { recheckUpstreamPurchase } from "../upstream/recheck-upstream-purchase";
import { callBotApi, DEFAULT_TELEGRAM_API } from "./channels/telegram";
import { RECHECK_PREFIX } from "./telegram-buttons";

// Issue 25.4: the presses of a review alert's "check upstream again" button
// reach us as Telegram updates, fetched by the one long poll of the site
// (telegram-poller.ts). Handling a batch is one transaction: the channel's
// row is locked, updates below its stored offset are skipped (an update
// Telegram hands out again after a crash is handled once), each press is
// handled and audited, and the new offset is stored. The presser's answers
// go out after the commit: no network call inside the transaction.
// A press acts only for a Telegram user bound to an active administrator
// (alerts:telegram:bind) and then as that administrator. Updates are
// hostile input: checked with zod, anything else is skipped.

const UpdateSchema = z.object({
  update_id: z.number().int().nonnegative(),
  callback_query: z
    .object({ id: z.string().max(200), from: z.object({ id: z.number().int() }), data: z.string().max(64).optional() })
    .optional(),
});
const ORDER_NO = /^[A-Za-z0-9_-]{1,60}$/;

export interface TelegramChannel {
  id: number;
  token: string;
  apiBase: string;
  offset: number;
}

/** The Telegram channels to poll, with their bot tokens (decrypted here, never logged). */
export async function telegramChannels(): Promise<TelegramChannel[]> {
  const rows = await db().alertChannel.findMany({ where: { kind: "telegram", deletedAt: null }, orderBy: { id: "asc" } });
  return rows.map((ch) => ({
    id: ch.id,
    token: (JSON.parse(decryptText(ch.secretCiphertext)) as { botToken?: string }).botToken ?? "",
    apiBase: String((ch.config as { apiBase?: string }).apiBase || DEFAULT_TELEGRAM_API),
    offset: Number(ch.updateOffset),
  }));
}

/** Handles one getUpdates answer of a channel; returns the presses handled (each answered after the commit). */
export async function handleTelegramUpdates(ch: TelegramChannel, updates: unknown[]): Promise<number> {
  const { answers, next } = await db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ offset: bigint }[]>`
      SELECT "updateOffset" AS "offset" FROM "AlertChannel" WHERE "id" = ${ch.id} FOR UPDATE`;
    if (!row) return { answers: [], next: ch.offset };
    const stored = Number(row.offset);
    let next = stored;
    const out: { id: string; text: string }[] = [];
    for (const raw of updates.slice(0, 100)) {
      const id = (raw as { update_id?: unknown })?.update_id;
      if (typeof id !== "number" || !Number.isSafeInteger(id) || id < stored) continue; // handled before
      // A malformed update is still consumed (else it would come back forever).
      next = Math.max(next, id + 1);
      const u = UpdateSchema.safeParse(raw);
      const q = u.success ? u.data.callback_query : undefined;
      if (q) out.push({ id: q.id, text: await handlePress(tx, ch.id, q) });
    }
    if (next !== stored) await tx.alertChannel.update({ where: { id: ch.id }, data: { updateOffset: BigInt(next) } });
    return { answers: out, next };
  });
  ch.offset = next; // only once committed: the next getUpdates confirms these updates to Telegram
  for (const a of answers) await callBotApi(ch.apiBase, ch.token, "answerCallbackQuery", { callback_query_id: a.id, text: a.text });
  return answers.length;
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
      if (await recheckWaiting(tx, orderNo)) outcome = `check of order ${orderNo} already queued`;
      else {
        await recheckUpstreamPurchase({ orderNo, actor }, tx);
        outcome = `check of order ${orderNo} queued`;
      }
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

/** A recheck of this order that no worker has started yet: a second press changes nothing (issue 25.4). */
async function recheckWaiting(tx: Tx, orderNo: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ n: number }[]>`
    SELECT 1 AS n FROM "Order" o JOIN "UpstreamPurchase" u ON u."orderId" = o."id"
    JOIN graphile_worker._private_jobs j ON j."key" = 'upstream:' || u."id"
    WHERE o."orderNo" = ${orderNo} AND j."locked_at" IS NULL AND (j."payload"->>'recheck') = 'true'`;
  return rows.length > 0;
}
