import { db } from "../db/client";
import { channelProblem } from "./channel-problem";
import { ALERT_KIND_NAMES, ALERT_KINDS } from "./event-kinds";

export interface ChannelView {
  id: number;
  name: string;
  kind: string;
  config: Record<string, unknown>;
  rules: Record<string, boolean>;
  last_ok_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  /** The last attempt failed, or the stored settings are refused (channel-problem.ts): shown on the dashboard. */
  failing: boolean;
}

/** Issue 25: the live channels with their rules (defaults filled in); no secrets. Issue 33.1: a refused setting is the error shown. */
export async function listAlertChannels(): Promise<ChannelView[]> {
  const rows = await db().alertChannel.findMany({ where: { deletedAt: null }, orderBy: { id: "asc" }, include: { rules: true } });
  return rows.map((c) => {
    const problem = channelProblem(c);
    const rules = Object.fromEntries(ALERT_KIND_NAMES.map((k) => [k, c.rules.find((r) => r.event === k)?.enabled ?? ALERT_KINDS[k].on]));
    return {
      id: c.id,
      name: c.name,
      kind: c.kind,
      config: c.config as Record<string, unknown>,
      rules,
      last_ok_at: c.lastOkAt?.toISOString() ?? null,
      last_error_at: c.lastErrorAt?.toISOString() ?? null,
      last_error: problem ?? c.lastError,
      failing: !!problem || (!!c.lastErrorAt && (!c.lastOkAt || c.lastErrorAt > c.lastOkAt)),
    };
  });
}
