import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/**
 * Issue 37.2 (decision 0091): lets an API key also speak ACG-Faka's shared
 * store protocol under /acg, or stops it. Off by default: that protocol sends
 * the key's secret in every request body and has no timestamp, so an operator
 * turns it on for the one key a shop needs. Returns what the shop's operator
 * types into ACG-Faka's "shared store" screen: the domain and app_id (its
 * app_key is this key's API secret, which only the buyer holds). Audited when
 * it changes something; switching a disabled key on is refused.
 */
export async function setAcgSwitch({ apiKey, on, actor }: { apiKey: string; on: boolean; actor: Actor }) {
  return db().$transaction(async (tx) => {
    const key = await tx.apiCredential.findUnique({ where: { apiKey }, select: { id: true, isActive: true, acgEnabled: true } });
    if (!key) throw appError("not_found", "no such API key");
    if (on && !key.isActive) throw appError("key_disabled", "this API key is disabled");
    if (key.acgEnabled !== on) {
      await tx.apiCredential.update({ where: { id: key.id }, data: { acgEnabled: on } });
      // As the other key rows (create-api-key.ts): the target is the key's id, the key itself goes in the details.
      await writeAuditLog(tx, {
        actor,
        action: on ? "api_key.acg_on" : "api_key.acg_off",
        targetType: "api_credential",
        targetId: String(key.id),
        details: { apiKey },
      });
    }
    const settings = await tx.siteSettings.findUniqueOrThrow({ where: { id: 1 }, select: { publicBaseUrl: true } });
    return { appId: String(key.id), acgEnabled: on, url: `${settings.publicBaseUrl.replace(/\/+$/, "")}/acg` };
  });
}
