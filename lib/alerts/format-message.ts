import type { AlertParams, MessageKind } from "./event-kinds";

// Issue 25: the words of every alert, in the console's two languages: a title, a few lines of facts
// and a link to the console page where the operator acts. The facts are the event's params (order
// numbers, amounts, names, hosts), never a secret; each channel renders this (HTML, text, JSON).

export type AlertLanguage = "zh-CN" | "en";

export interface AlertMessage {
  kind: MessageKind;
  title: string;
  lines: string[];
  /** Absolute link to the console page, or null. */
  link: string | null;
  /** Further alerts of this kind folded into this message. */
  more: number;
}

type Words = { title: string; lines: (p: AlertParams) => (string | false)[]; path: (p: AlertParams) => string | null };
type Table = Record<MessageKind, Words>;

const v = (p: AlertParams, k: string) => (p[k] === null || p[k] === undefined ? "-" : String(p[k]));
const orderPath = (p: AlertParams) => `/admin/orders/${encodeURIComponent(v(p, "orderNo"))}`;

const EN: Table = {
  test: { title: "Test message", lines: (p) => [`Channel "${v(p, "channel")}" works.`], path: () => "/admin/alerts" },
  order_review: {
    title: "Order needs review",
    lines: (p) => [
      `Order ${v(p, "orderNo")} (${v(p, "amount")}) is held for review.`,
      p.reason !== undefined && `Reason: ${v(p, "reason")}`,
    ],
    path: orderPath,
  },
  order_manual_wait: {
    title: "Manual order waiting",
    lines: (p) => [`Order ${v(p, "orderNo")} (${v(p, "amount")}) has waited ${v(p, "minutes")} minutes for manual fulfillment.`],
    path: () => "/admin/manual",
  },
  callback_gave_up: {
    title: "Order callback gave up",
    lines: (p) => [
      `The callback of order ${v(p, "orderNo")} to ${v(p, "host")} (API key ${v(p, "apiKey")}) failed ${v(p, "attempts")} times; it is not retried any more.`,
    ],
    path: orderPath,
  },
  catalog_event_gave_up: {
    title: "Catalogue event gave up",
    lines: (p) => [
      `Catalogue event ${v(p, "eventId")} to ${v(p, "host")} (API key ${v(p, "apiKey")}) failed ${v(p, "attempts")} times; it is not retried any more.`,
    ],
    path: () => "/admin/jobs",
  },
  upstream_purchase_failed: {
    title: "Upstream purchase failed",
    lines: (p) => [
      `Order ${v(p, "orderNo")} (${v(p, "amount")}) could not be bought from ${v(p, "upstream")}: ${v(p, "reason")}. It was refunded.`,
    ],
    path: orderPath,
  },
  upstream_down: {
    title: "Upstream not answering",
    lines: (p) => [`${v(p, "upstream")} failed ${v(p, "failures")} pings in a row: ${v(p, "error")}.`],
    path: () => "/admin/upstream",
  },
  upstream_recovered: {
    title: "Upstream answers again",
    lines: (p) => [`${v(p, "upstream")} answers its ping again.`],
    path: () => "/admin/upstream",
  },
  upstream_balance_low: {
    title: "Upstream balance low",
    lines: (p) => [`The balance at ${v(p, "upstream")} is ${v(p, "balance")}, below ${v(p, "threshold")}.`],
    path: () => "/admin/upstream",
  },
  stock_low: {
    title: "Stock low",
    lines: (p) => [
      `${v(p, "title")} (${v(p, "skuCode")}): ${v(p, "stock")} left, below ${v(p, "threshold")}.`,
      p.since === "added" && "Low since it was added.",
      p.since === "threshold" && "Below its new threshold.",
    ],
    path: (p) => `/admin/catalog/skus/${v(p, "skuId")}`,
  },
  stock_recovered: {
    title: "Stock back",
    lines: (p) => [`${v(p, "title")} (${v(p, "skuCode")}): ${v(p, "stock")} available again (threshold ${v(p, "threshold")}).`],
    path: (p) => `/admin/catalog/skus/${v(p, "skuId")}`,
  },
  queue_stale: {
    title: "Job queue stalled",
    lines: (p) => [
      `${v(p, "jobs")} jobs have waited more than ${v(p, "minutes")} minutes (oldest: ${v(p, "oldestMinutes")} min). Are the workers running?`,
    ],
    path: () => "/admin/jobs",
  },
  queue_recovered: {
    title: "Job queue moving again",
    lines: () => ["No job waits longer than its threshold any more."],
    path: () => "/admin/jobs",
  },
  payment_review: {
    title: "Payment needs review",
    lines: (p) => [`Payment ${v(p, "paymentNo")} of ${v(p, "amount")}: ${v(p, "reason")}. Nothing was credited; check it at the gateway.`],
    path: (p) => `/admin/payments/${v(p, "paymentNo")}`,
  },
  credit_high: {
    title: "Credit line 80 % used",
    lines: (p) => [`Buyer ${v(p, "email")} owes ${v(p, "used")} of a ${v(p, "limit")} credit line (${v(p, "percent")} %).`],
    path: (p) => `/admin/buyers/${v(p, "userId")}`,
  },
  payment_channel_failing: {
    title: "Payment channel failing",
    lines: (p) => [`Channel ${v(p, "channel")} (#${v(p, "channelId")}): the gateway did not accept a new payment.`],
    path: () => "/admin/payments/channels",
  },
  topup_request: {
    title: "Top-up request",
    lines: (p) => [`Buyer ${v(p, "buyer")} asks to top up ${v(p, "amount")} (request ${v(p, "requestId")}).`],
    path: () => "/admin/top-ups",
  },
  admin_locked: {
    title: "Administrator locked out",
    lines: (p) => [`Sign-in for ${v(p, "email")} is locked after repeated failures (from ${v(p, "ip")}).`],
    path: () => "/admin/audit",
  },
  admin_new_device: {
    title: "Sign-in from a new device",
    lines: (p) => [`${v(p, "email")} signed in from a new device (${v(p, "ip")}).`],
    path: () => "/admin/audit",
  },
  daily_summary: {
    title: "Daily summary",
    lines: (p) => [
      `${v(p, "day")}: ${v(p, "orders")} orders, ${v(p, "delivered")} delivered, sales ${v(p, "sales")}, ${v(p, "refunds")} refunded (${v(p, "refunded")}), top-ups ${v(p, "topups")}, ${v(p, "lowStock")} SKUs low on stock.`,
    ],
    path: () => "/admin",
  },
};

const ZH: Table = {
  test: { title: "测试消息", lines: (p) => [`通知渠道「${v(p, "channel")}」工作正常。`], path: () => "/admin/alerts" },
  order_review: {
    title: "订单待审核",
    lines: (p) => [`订单 ${v(p, "orderNo")}（${v(p, "amount")}）已转入人工审核。`, p.reason !== undefined && `原因：${v(p, "reason")}`],
    path: orderPath,
  },
  order_manual_wait: {
    title: "手动订单等待中",
    lines: (p) => [`订单 ${v(p, "orderNo")}（${v(p, "amount")}）已等待手动发货 ${v(p, "minutes")} 分钟。`],
    path: () => "/admin/manual",
  },
  callback_gave_up: {
    title: "订单回调已放弃",
    lines: (p) => [
      `订单 ${v(p, "orderNo")} 发往 ${v(p, "host")}（API key ${v(p, "apiKey")}）的回调失败 ${v(p, "attempts")} 次，不再重试。`,
    ],
    path: orderPath,
  },
  catalog_event_gave_up: {
    title: "目录事件已放弃",
    lines: (p) => [`目录事件 ${v(p, "eventId")} 发往 ${v(p, "host")}（API key ${v(p, "apiKey")}）失败 ${v(p, "attempts")} 次，不再重试。`],
    path: () => "/admin/jobs",
  },
  upstream_purchase_failed: {
    title: "上游采购失败",
    lines: (p) => [`订单 ${v(p, "orderNo")}（${v(p, "amount")}）未能从 ${v(p, "upstream")} 采购：${v(p, "reason")}。已退款。`],
    path: orderPath,
  },
  upstream_down: {
    title: "上游无响应",
    lines: (p) => [`${v(p, "upstream")} 连续 ${v(p, "failures")} 次 ping 失败：${v(p, "error")}。`],
    path: () => "/admin/upstream",
  },
  upstream_recovered: { title: "上游已恢复", lines: (p) => [`${v(p, "upstream")} 的 ping 已恢复正常。`], path: () => "/admin/upstream" },
  upstream_balance_low: {
    title: "上游余额不足",
    lines: (p) => [`${v(p, "upstream")} 的余额为 ${v(p, "balance")}，低于 ${v(p, "threshold")}。`],
    path: () => "/admin/upstream",
  },
  stock_low: {
    title: "库存不足",
    lines: (p) => [
      `${v(p, "title")}（${v(p, "skuCode")}）：剩余 ${v(p, "stock")}，低于 ${v(p, "threshold")}。`,
      p.since === "added" && "添加时即已不足。",
      p.since === "threshold" && "低于新设的阈值。",
    ],
    path: (p) => `/admin/catalog/skus/${v(p, "skuId")}`,
  },
  stock_recovered: {
    title: "库存已恢复",
    lines: (p) => [`${v(p, "title")}（${v(p, "skuCode")}）：可用库存 ${v(p, "stock")}（阈值 ${v(p, "threshold")}）。`],
    path: (p) => `/admin/catalog/skus/${v(p, "skuId")}`,
  },
  queue_stale: {
    title: "任务队列停滞",
    lines: (p) => [`${v(p, "jobs")} 个任务等待超过 ${v(p, "minutes")} 分钟（最久 ${v(p, "oldestMinutes")} 分钟）。worker 是否在运行？`],
    path: () => "/admin/jobs",
  },
  queue_recovered: { title: "任务队列已恢复", lines: () => ["已没有超过阈值的等待任务。"], path: () => "/admin/jobs" },
  payment_review: {
    title: "支付需要复核",
    lines: (p) => [`支付 ${v(p, "paymentNo")}（${v(p, "amount")}）：${v(p, "reason")}。未入账，请到支付网关核实。`],
    path: (p) => `/admin/payments/${v(p, "paymentNo")}`,
  },
  credit_high: {
    title: "授信额度已用 80%",
    lines: (p) => [`买家 ${v(p, "email")} 已欠 ${v(p, "used")}，授信额度 ${v(p, "limit")}（${v(p, "percent")}%）。`],
    path: (p) => `/admin/buyers/${v(p, "userId")}`,
  },
  payment_channel_failing: {
    title: "支付通道异常",
    lines: (p) => [`通道 ${v(p, "channel")}（#${v(p, "channelId")}）：网关未接受新的支付。`],
    path: () => "/admin/payments/channels",
  },
  topup_request: {
    title: "充值申请",
    lines: (p) => [`买家 ${v(p, "buyer")} 申请充值 ${v(p, "amount")}（申请 ${v(p, "requestId")}）。`],
    path: () => "/admin/top-ups",
  },
  admin_locked: {
    title: "管理员账户已锁定",
    lines: (p) => [`${v(p, "email")} 多次登录失败，已被锁定（来自 ${v(p, "ip")}）。`],
    path: () => "/admin/audit",
  },
  admin_new_device: { title: "新设备登录", lines: (p) => [`${v(p, "email")} 从新设备登录（${v(p, "ip")}）。`], path: () => "/admin/audit" },
  daily_summary: {
    title: "每日汇总",
    lines: (p) => [
      `${v(p, "day")}：订单 ${v(p, "orders")} 笔，已交付 ${v(p, "delivered")} 笔，销售额 ${v(p, "sales")}，退款 ${v(p, "refunds")} 笔（${v(p, "refunded")}），充值 ${v(p, "topups")}，库存不足 SKU ${v(p, "lowStock")} 个。`,
    ],
    path: () => "/admin",
  },
};

/** The message of one alert (plus `more` folded ones) in the site's language, linked under the public base URL. */
export function formatAlert(kind: MessageKind, params: AlertParams, lang: AlertLanguage, baseUrl: string, more = 0): AlertMessage {
  const words = (lang === "en" ? EN : ZH)[kind];
  const lines = words.lines(params).filter((l): l is string => typeof l === "string");
  if (more > 0) lines.push(lang === "en" ? `… and ${more} more` : `…… 另有 ${more} 条`);
  const path = more > 0 ? "/admin/alerts" : words.path(params);
  return { kind, title: words.title, lines, link: path ? baseUrl.replace(/\/+$/, "") + path : null, more };
}

/** Plain text of a message (e-mail body, robot text): title, facts, link. */
export function alertText(m: AlertMessage, siteName: string): string {
  return [`[${siteName}] ${m.title}`, ...m.lines, ...(m.link ? [m.link] : [])].join("\n");
}
