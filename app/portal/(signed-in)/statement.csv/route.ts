import { formatDateTime } from "@/lib/i18n/format";
import { listStatement } from "@/lib/points/list-statement";
import { StatementWindowSchema } from "@/lib/portal/statement-window";
import { csvResponse, portalExport } from "@/lib/portal-auth/portal-route";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

/** At most this many ledger rows in one file (newest first); narrow the dates for more. */
const EXPORT_MAX = 10_000;

/** GET /portal/statement.csv?from=&to=: the statement window as CSV, same rows as GET /statement. */
export const GET = portalExport(async (req, { buyer }) => {
  const w = StatementWindowSchema.parse({ ...Object.fromEntries(new URL(req.url).searchParams), page: 1 });
  const s = await listStatement({ userId: buyer.userId, page: 1, pageSize: EXPORT_MAX, from: w.fromDate, to: w.toDate });
  return csvResponse("statement.csv", [
    ["id", "created_at", "kind", "amount", "balance_after", "order_no", "payment_no", "note"],
    ...s.rows.map((r) => [
      String(r.id),
      formatDateTime(r.createdAt),
      r.kind,
      formatAmount(r.deltaCents),
      formatAmount(r.balanceAfterCents),
      r.orderNo,
      r.paymentNo,
      r.kind === "adjustment" ? r.reason : "",
    ]),
  ]);
});
