import { db } from "../db/client";
import { alertContext } from "./alert-context";
import { isAlertKind, type AlertParams } from "./event-kinds";
import { formatAlert, type AlertLanguage } from "./format-message";

export interface AlertRow {
  id: string;
  created_at: string;
  kind: string;
  title: string;
  text: string;
  channel: string | null;
  state: string;
  attempts: number;
  error: string | null;
}

/**
 * Issue 25: the last alerts (500 at most), one row per channel delivery, or the event alone when no channel wanted it.
 * In the site's alert language, or in `lang` (the console shows them in its reader's language, issue 35.4).
 */
export async function listAlerts(take = 500, lang?: AlertLanguage): Promise<AlertRow[]> {
  const ctx = await alertContext();
  const events = await db().alertEvent.findMany({
    orderBy: { id: "desc" },
    take,
    include: { deliveries: { include: { channel: { select: { name: true } } }, orderBy: { channelId: "asc" } } },
  });
  const rows: AlertRow[] = [];
  for (const e of events) {
    if (!isAlertKind(e.kind)) continue;
    const m = formatAlert(e.kind, e.params as AlertParams, lang ?? ctx.lang, ctx.baseUrl);
    const base = { id: String(e.id), created_at: e.createdAt.toISOString(), kind: e.kind, title: m.title, text: m.lines.join(" ") };
    if (!e.deliveries.length) rows.push({ ...base, channel: null, state: "no channel", attempts: 0, error: null });
    for (const d of e.deliveries)
      rows.push({ ...base, channel: d.channel.name, state: d.status, attempts: d.attemptCount, error: d.lastError });
    if (rows.length >= take) break;
  }
  return rows.slice(0, take);
}
