import { formatDateTime } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/messages";
import { formatAmount } from "@/lib/protocol/amount";
import { WholeTable } from "./console-tables";

interface LedgerEntry {
  id: number | bigint;
  createdAt: Date;
  deltaCents: bigint;
  balanceAfterCents: bigint;
  reason: string;
  order?: { orderNo: string } | null;
}

/** Points ledger rows shown whole (issue 34.5: the buyer page and the order page). `withOrder` adds a column linking each row's order. */
export function LedgerTable({
  entries,
  t,
  testId,
  withOrder,
}: {
  entries: LedgerEntry[];
  t: Translate;
  testId?: string;
  withOrder?: boolean;
}) {
  return (
    <WholeTable
      testId={testId}
      columns={[
        { id: "createdAt", header: t("common.created") },
        { id: "delta", header: t("buyers.delta") },
        { id: "after", header: t("buyers.balanceAfter") },
        { id: "reason", header: t("common.reason"), wrap: true },
        ...(withOrder ? [{ id: "order", header: t("buyers.order") }] : []),
      ]}
      rows={entries.map((l) => ({
        id: String(l.id),
        cells: {
          createdAt: formatDateTime(l.createdAt),
          delta: formatAmount(l.deltaCents),
          after: formatAmount(l.balanceAfterCents),
          reason: l.reason,
          ...(withOrder ? { order: l.order ? { text: l.order.orderNo, href: `/admin/orders/${l.order.orderNo}` } : "" } : {}),
        },
      }))}
      t={t}
    />
  );
}
