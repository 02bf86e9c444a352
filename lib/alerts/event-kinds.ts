// Issue 25: every kind of alert, with its default (on or off for a channel
// that has no rule for it) and, where it has one, its site-wide number and
// that number's default. The one list the CLI, the console and the checks read.

export const ALERT_KINDS = {
  order_review: { on: true },
  order_manual_wait: { on: true, threshold: { default: 30, unit: "minutes" } },
  callback_gave_up: { on: true },
  catalog_event_gave_up: { on: true },
  upstream_purchase_failed: { on: true },
  upstream_down: { on: true, threshold: { default: 3, unit: "failed pings in a row" } },
  upstream_recovered: { on: true },
  upstream_balance_low: { on: true },
  stock_low: { on: true, threshold: { default: 10, unit: "keys (site-wide default; sku:threshold per SKU)" } },
  stock_recovered: { on: true },
  queue_stale: { on: true, threshold: { default: 10, unit: "minutes" } },
  queue_recovered: { on: true },
  topup_request: { on: true },
  payment_review: { on: true },
  payment_channel_failing: { on: true },
  credit_high: { on: true },
  admin_locked: { on: true },
  admin_new_device: { on: true },
  daily_summary: { on: true, threshold: { default: 9, unit: "hour of the day (ALERT_TIME_ZONE)" } },
} as const satisfies Record<string, { on: boolean; threshold?: { default: number; unit: string } }>;

export type AlertKind = keyof typeof ALERT_KINDS;
/** "test" is the channel test button's message: never a rule, never folded with others. */
export type MessageKind = AlertKind | "test";
export const ALERT_KIND_NAMES = Object.keys(ALERT_KINDS) as AlertKind[];

export const isAlertKind = (s: string): s is AlertKind => Object.hasOwn(ALERT_KINDS, s);

/**
 * Issue 33.8: other names an operator may give an event kind. An order in
 * review shows as `unknown_review` everywhere operators look (its state), so
 * that name is accepted for `order_review`.
 */
export const ALERT_KIND_ALIASES: Readonly<Record<string, AlertKind>> = { unknown_review: "order_review" };
/** The kind a name (or an alias) stands for, else the name unchanged (for the caller's check to refuse). */
export const alertKindNamed = (s: string): string => (Object.hasOwn(ALERT_KIND_ALIASES, s) ? ALERT_KIND_ALIASES[s] : s);

/** The kinds that carry a site-wide number. */
export type ThresholdKind = { [K in AlertKind]: (typeof ALERT_KINDS)[K] extends { threshold: object } ? K : never }[AlertKind];
export const hasThreshold = (k: AlertKind): k is ThresholdKind => "threshold" in ALERT_KINDS[k];
export const thresholdDefault = (k: ThresholdKind): number => ALERT_KINDS[k].threshold.default;

/** Parameters of a message: numbers, names, hosts; never a secret (docs/alerts.md). */
export type AlertParams = Record<string, string | number | null>;
