import { PageHeader } from "@/components/page-header";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { listStatement } from "@/lib/points/list-statement";
import { StatementWindowSchema } from "@/lib/portal/statement-window";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";
import { first, Pager, Table, type Query } from "../ui";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

/** The ledger as GET /statement answers it (listStatement, decision 0019): newest first, the balance after each row. */
export default async function PortalStatementPage({ searchParams }: { searchParams: Query }) {
  const buyer = await requireBuyer();
  const { t } = await getI18n();
  const params = await searchParams;
  const w = StatementWindowSchema.parse({
    from: first(params.from) || undefined,
    to: first(params.to) || undefined,
    page: first(params.page),
  });
  const statement = await listStatement({ userId: buyer.userId, page: w.page, pageSize: PAGE_SIZE, from: w.fromDate, to: w.toDate });
  const kept = { from: w.from, to: w.to };
  const q = new URLSearchParams(Object.entries(kept).filter(([, v]) => v) as [string, string][]).toString();
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
      <form className="table-tools" method="get">
        <div className="field">
          <label htmlFor="from">{t("portal.orders.from")}</label>
          <input id="from" name="from" type="date" defaultValue={w.from ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="to">{t("portal.orders.to")}</label>
          <input id="to" name="to" type="date" defaultValue={w.to ?? ""} />
        </div>
        <div>
          <button type="submit" className="btn">
            {t("portal.prices.filter")}
          </button>
        </div>
      </form>
      <Table
        label={t("portal.statement.title")}
        testId="portal-statement"
        head={[
          t("portal.common.time"),
          t("portal.statement.kind"),
          t("portal.statement.delta"),
          t("portal.statement.balanceAfter"),
          t("portal.orders.orderNo"),
          t("portal.statement.reason"),
        ]}
      >
        {statement.rows.length === 0 ? (
          <tr>
            <td colSpan={6}>{t("portal.common.none")}</td>
          </tr>
        ) : (
          statement.rows.map((r) => (
            <tr key={String(r.id)}>
              <td>{formatDateTime(r.createdAt)}</td>
              <td>{r.topUpId !== null ? t("portal.statement.kind.topUp") : t(`portal.statement.kind.${r.kind}`)}</td>
              <td>{formatAmount(r.deltaCents)}</td>
              <td>{formatAmount(r.balanceAfterCents)}</td>
              <td>{r.orderNo ? <a href={`/portal/orders/${encodeURIComponent(r.orderNo)}`}>{r.orderNo}</a> : ""}</td>
              <td>
                {r.topUpId !== null ? (
                  <a href="/portal/top-ups">{t("portal.statement.topUpNote", { id: r.topUpId })}</a>
                ) : r.kind === "adjustment" ? (
                  <span translate="no">{r.reason}</span>
                ) : (
                  ""
                )}
              </td>
            </tr>
          ))
        )}
      </Table>
      <Pager page={w.page} pages={Math.ceil(statement.total / PAGE_SIZE)} params={kept} t={t} />
    </>
  );
}
