import { db } from "../db/client";
import type { Tx } from "../db/tx";
import type { AlertLanguage } from "./format-message";
import { hasThreshold, thresholdDefault, type AlertKind, type ThresholdKind } from "./event-kinds";

/** What every message needs from the settings: the site's name, language and public base URL (console links). */
export async function alertContext(): Promise<{ siteName: string; lang: AlertLanguage; baseUrl: string }> {
  const s = await db().siteSettings.findUniqueOrThrow({
    where: { id: 1 },
    select: { siteName: true, language: true, publicBaseUrl: true },
  });
  return { siteName: s.siteName, lang: s.language === "en" ? "en" : "zh-CN", baseUrl: s.publicBaseUrl };
}

/** The site-wide number of an event kind (alerts:rule:set --threshold), or its default. */
export async function alertThreshold(kind: ThresholdKind, tx: Tx = db()): Promise<number> {
  const row = await tx.alertThreshold.findUnique({ where: { event: kind } });
  return row?.value ?? thresholdDefault(kind);
}

/** All thresholds at once (the periodic check reads them every run). */
export async function alertThresholds(): Promise<Record<ThresholdKind, number>> {
  const rows = await db().alertThreshold.findMany();
  const out = {} as Record<ThresholdKind, number>;
  for (const k of [
    "order_manual_wait",
    "upstream_down",
    "stock_low",
    "queue_stale",
    "daily_summary",
  ] as const satisfies readonly AlertKind[]) {
    if (!hasThreshold(k)) continue;
    out[k] = rows.find((r) => r.event === k)?.value ?? thresholdDefault(k);
  }
  return out;
}
