import { PageHeader } from "@/components/page-header";
import { formatDateTime } from "@/lib/i18n/format";
import { listStatement } from "@/lib/points/list-statement";
import { StatementWindowSchema } from "@/lib/portal/statement-window";
import { formatAmount } from "@/lib/protocol/amount";
import { DateRangeFields, FilterForm, first, openPortalListPage, keptQuery, Pager, Table, type Query } from "../ui";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

/** The ledger as GET /statement answers it (listStatement, decision 0019): newest first, the balance after each row. */
export default async function PortalStatementPage({ searchParams }: { searchParams: Query }) {
  const { buyer, t, params } = await openPortalListPage(searchParams);
  const w = StatementWindowSchema.parse({
    from: first(params.from) || undefined,
    to: first(params.to) || undefined,
    page: first(params.page),
  });
  const statement = await listStatement({ userId: buyer.userId, page: w.page, pageSize: PAGE_SIZE, from: w.fromDate, to: w.toDate });
  const kept = { from: w.from, to: w.to };
  const q = keptQuery(kept);
  return (
    <>
      <PageHeader title={t("portal.statement.title")} description={t("portal.statement.help")}>
        <a className="btn" href={`/portal/statement.csv${q ? `?${q}` : ""}`} download>
          {t("portal.statement.export")}
        </a>
      </PageHeader>
      <p>
        {t("portal.overview.balance")}: <strong data-testid="portal-statement-balance">{formatAmount(statement.balanceCents)}</strong>
      </p>
      <FilterForm t={t}>
        <DateRangeFields t={t} from={w.from} to={w.to} />
      </FilterForm>
      <Table
        label={t("portal.statement.title")}
        testId="portal-statement"
        none={t("portal.common.none")}
        head={[
          t("portal.common.time"),
          t("portal.statement.kind"),
          t("portal.statement.delta"),
          t("portal.statement.balanceAfter"),
          t("portal.orders.orderNo"),
          t("portal.statement.reason"),
        ]}
      >
        {statement.rows.map((r) => (
          <tr key={String(r.id)}>
            <td>{formatDateTime(r.createdAt)}</td>
            <td>{r.kind === "topup" || r.topUpId !== null ? t("portal.statement.kind.topUp") : t(`portal.statement.kind.${r.kind}`)}</td>
            <td>{formatAmount(r.deltaCents)}</td>
            <td>{formatAmount(r.balanceAfterCents)}</td>
            <td>{r.orderNo ? <a href={`/portal/orders/${encodeURIComponent(r.orderNo)}`}>{r.orderNo}</a> : ""}</td>
            <td>
              {r.paymentNo !== null ? (
                <a href={`/portal/top-ups/${encodeURIComponent(r.paymentNo)}`} translate="no">
                  {r.paymentNo}
                </a>
              ) : r.topUpId !== null ? (
                <a href="/portal/top-ups">{t("portal.statement.topUpNote", { id: r.topUpId })}</a>
              ) : r.kind === "adjustment" ? (
                <span translate="no">{r.reason}</span>
              ) : (
                ""
              )}
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={w.page} pages={Math.ceil(statement.total / PAGE_SIZE)} params={kept} t={t} />
    </>
  );
}
