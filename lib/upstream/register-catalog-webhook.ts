import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { CatalogWebhookSchema } from "../protocol/catalog-event-wire";
import { pathOf } from "../protocol/endpoints";
import { clientFor, loadConnection, upstreamCallbackUrl } from "./connection";
import { UpstreamError } from "./upstream-client";

/**
 * Issue 26.1: asks a Profile U upstream to send us its catalogue events
 * (`PUT {prefix}/catalog-webhook`, docs/protocol.md#catalogue-events) at our
 * callback URL for this connection (UPSTREAM_CALLBACK_BASE_URL, as order
 * callbacks); each event then sets the last known stock of the sources
 * pointing at its SKUs (apply-upstream-catalog-event.ts). Profile P sends
 * no events. Returns the URL the upstream now holds.
 */
export async function registerCatalogWebhook(input: { connectionId: number; actor: Actor }): Promise<{ url: string }> {
  const conn = await loadConnection(input.connectionId);
  if (conn.protocol === "dujiao_next") throw appError("bad_request", "a Dujiao-Next supplier sends no catalogue events");
  if (conn.profile !== "U") throw appError("bad_request", "a Profile P upstream sends no catalogue events");
  const url = upstreamCallbackUrl(conn.id);
  if (!url) throw appError("bad_request", "set UPSTREAM_CALLBACK_BASE_URL (our public address) first");
  let held: string | null;
  try {
    held = (await clientFor(conn).request(CatalogWebhookSchema, "PUT", pathOf("putCatalogWebhook"), { url })).url;
  } catch (err) {
    const why = err instanceof UpstreamError ? err.message : "unexpected error";
    throw appError("upstream_unreachable", `the upstream did not register the catalogue webhook (${why})`);
  }
  if (held !== url) throw appError("upstream_unreachable", "the upstream answered with another webhook URL");
  await writeAuditLog(db(), {
    actor: input.actor,
    action: "upstream.catalog_webhook",
    targetType: "upstream_connection",
    targetId: String(conn.id),
    details: { url },
  });
  return { url };
}
