import { env } from "../config/env";
import type { AlertParams } from "./event-kinds";
import type { AlertLanguage } from "./format-message";

// Issue 25.4: the inline buttons of a review alert on Telegram. "Open in
// console" is a plain link (only for a public https base URL: Telegram
// refuses the whole message when a button's URL is not one it accepts);
// "check upstream again" is callback data, handled by the updates poller
// (telegram-updates.ts) for chat ids bound to an administrator, and only
// offered when that poller is on (TELEGRAM_POLLING=true).

export const RECHECK_PREFIX = "recheck:";

export function reviewButtons(params: AlertParams, ctx: { lang: AlertLanguage; baseUrl: string }): object | undefined {
  const orderNo = typeof params.orderNo === "string" ? params.orderNo : null;
  if (!orderNo) return undefined;
  const en = ctx.lang === "en";
  const row: object[] = [];
  if (env().TELEGRAM_POLLING && orderNo.length <= 60)
    row.push({ text: en ? "Check upstream again" : "重新查询上游", callback_data: RECHECK_PREFIX + orderNo });
  const base = ctx.baseUrl.replace(/\/+$/, "");
  if (/^https:\/\/(?!localhost|127\.|\[)/i.test(base))
    row.push({ text: en ? "Open in console" : "在后台打开", url: `${base}/admin/orders/${encodeURIComponent(orderNo)}` });
  return row.length ? { inline_keyboard: [row] } : undefined;
}
