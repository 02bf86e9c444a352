import type { DataColumn } from "@/components/data-table";
import { formatDateTime } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/messages";

// Issue 34.5: order callbacks and catalogue events are both deliveries with
// attempts and a retry schedule; their tables end with the same columns.

/** A time from the list (ISO text), or a dash when there is none. */
export const when = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : "—");

/** The columns a delivery table ends with: its state, attempts, last error, next attempt, creation and its action. */
export function deliveryColumns(t: Translate): DataColumn[] {
  return [
    { id: "status", header: t("common.status") },
    { id: "attempts", header: t("jobs.attempts") },
    { id: "lastError", header: t("jobs.lastError"), wrap: true },
    { id: "next", header: t("jobs.next") },
    { id: "created", header: t("common.created") },
    { id: "actions", header: t("common.actions") },
  ];
}

/** One delivery's attempts, last error, next attempt and creation (its state and action are its own). */
export function deliveryCells(d: { attempts: number; lastError: string | null; nextAttemptAt: string | null; createdAt: string | null }) {
  return { attempts: String(d.attempts), lastError: d.lastError ?? "", next: when(d.nextAttemptAt), created: when(d.createdAt) };
}
