import { db } from "../db/client";
import { log } from "../log";
import { dispatchAlertJob } from "./dispatch-alert";
import { sendAlertsJob } from "./send-alerts";

/**
 * Runs an alert's dispatch and sends in this process instead of waiting for
 * a worker: for the alert that says the workers are not working. The queued
 * jobs stay; when they run they find the deliveries made and sent.
 */
export async function deliverAlertNow(eventId: bigint): Promise<void> {
  try {
    await dispatchAlertJob({ eventId: String(eventId) });
    const deliveries = await db().alertDelivery.findMany({
      where: { eventId, status: "pending" },
      select: { channelId: true, kind: true },
    });
    for (const d of deliveries) await sendAlertsJob({ channelId: d.channelId, kind: d.kind });
  } catch (err) {
    log.warn({ component: "alerts", err: String((err as Error)?.message ?? err) }, "direct alert delivery failed; the queued one remains");
  }
}
