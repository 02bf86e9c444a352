// Every admin console text, in English and Simplified Chinese, one file per
// screen or domain under messages/ (defineMessages there makes a missing or
// extra translation fail the build). Each key lives in exactly one file
// (messages.test.ts), so the spreads below never override one another.
import { shell } from "./messages/shell";
import { common } from "./messages/common";
import { signIn } from "./messages/sign-in";
import { password } from "./messages/password";
import { security } from "./messages/security";
import { dashboard } from "./messages/dashboard";
import { orders } from "./messages/orders";
import { manual } from "./messages/manual";
import { review } from "./messages/review";
import { buyers } from "./messages/buyers";
import { apiKeys } from "./messages/api-keys";
import { settings } from "./messages/settings";
import { audit } from "./messages/audit";
import { jobs } from "./messages/jobs";
import { upstream } from "./messages/upstream";
import { catalog } from "./messages/catalog";
import { cardKeys } from "./messages/card-keys";
import { levels } from "./messages/levels";
import { alerts } from "./messages/alerts";
import { portal } from "./messages/portal";
import { topUps } from "./messages/top-ups";
import { claims } from "./messages/claims";
import { formErrors } from "./messages/form-errors";
import { auditActions } from "./messages/audit-actions";
import { payments } from "./messages/payments";
import { fulfillers } from "./messages/fulfillers";

/** Every screen's table; the console's text for a key comes from exactly one of them. */
export const MESSAGE_TABLES = [
  shell,
  common,
  signIn,
  password,
  security,
  dashboard,
  orders,
  manual,
  review,
  buyers,
  apiKeys,
  settings,
  audit,
  jobs,
  upstream,
  catalog,
  cardKeys,
  levels,
  alerts,
  portal,
  topUps,
  claims,
  formErrors,
  auditActions,
  payments,
  fulfillers,
] as const;

const en = {
  ...shell.en,
  ...common.en,
  ...signIn.en,
  ...password.en,
  ...security.en,
  ...dashboard.en,
  ...orders.en,
  ...manual.en,
  ...review.en,
  ...buyers.en,
  ...apiKeys.en,
  ...settings.en,
  ...audit.en,
  ...jobs.en,
  ...upstream.en,
  ...catalog.en,
  ...cardKeys.en,
  ...levels.en,
  ...alerts.en,
  ...portal.en,
  ...topUps.en,
  ...claims.en,
  ...formErrors.en,
  ...auditActions.en,
  ...payments.en,
  ...fulfillers.en,
};

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const zhCN: Messages = {
  ...shell.zhCN,
  ...common.zhCN,
  ...signIn.zhCN,
  ...password.zhCN,
  ...security.zhCN,
  ...dashboard.zhCN,
  ...orders.zhCN,
  ...manual.zhCN,
  ...review.zhCN,
  ...buyers.zhCN,
  ...apiKeys.zhCN,
  ...settings.zhCN,
  ...audit.zhCN,
  ...jobs.zhCN,
  ...upstream.zhCN,
  ...catalog.zhCN,
  ...cardKeys.zhCN,
  ...levels.zhCN,
  ...alerts.zhCN,
  ...portal.zhCN,
  ...topUps.zhCN,
  ...claims.zhCN,
  ...formErrors.zhCN,
  ...auditActions.zhCN,
  ...payments.zhCN,
  ...fulfillers.zhCN,
};

export const LOCALES = ["zh-CN", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const MESSAGES: Record<Locale, Messages> = { en, "zh-CN": zhCN };

/** Fills {name} placeholders. */
export function format(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

export function translator(locale: Locale) {
  const table = MESSAGES[locale];
  return (key: MessageKey, vars?: Record<string, string | number>) => format(table[key], vars);
}
export type Translate = ReturnType<typeof translator>;
