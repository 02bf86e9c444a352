import { Card, PageHeader } from "@/components/page-header";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { getBuyerOverview } from "@/lib/portal/buyer-overview";
import { getBuyerPrices } from "@/lib/prices/get-buyer-prices";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

export default async function PortalOverviewPage() {
  const buyer = await requireBuyer({ pending: "allowed" }); // issue 33.3: says the account waits
  const { t, locale } = await getI18n();
  const [o, prices] = await Promise.all([getBuyerOverview({ userId: buyer.userId }), getBuyerPrices(buyer.userId)]);
  return (
    <>
      <PageHeader title={t("portal.overview.title")} />
      <div className="grid-stats">
        <div className="stat">
          <span>{t("portal.overview.balance")}</span>
          <strong data-testid="portal-balance">{formatAmount(o.balanceCents)}</strong>
        </div>
        {prices.creditLimitCents > 0n ? (
          <div className="stat">
            <span>{t("portal.overview.credit")}</span>
            <strong data-testid="portal-credit">
              {t("portal.overview.creditUse", { used: formatAmount(prices.creditUsedCents), limit: formatAmount(prices.creditLimitCents) })}
            </strong>
          </div>
        ) : null}
        <div className="stat">
          <span>{t("portal.overview.level")}</span>
          <strong>{pickText(o.level.name, locale) || o.level.slug}</strong>
        </div>
        <div className="stat">
          <span>{t("portal.overview.today")}</span>
          <strong>{t("portal.overview.ordersSpend", { orders: o.today.orders, spend: formatAmount(o.today.spendCents) })}</strong>
        </div>
        <div className="stat">
          <span>{t("portal.overview.month")}</span>
          <strong>{t("portal.overview.ordersSpend", { orders: o.month.orders, spend: formatAmount(o.month.spendCents) })}</strong>
        </div>
        <div className="stat">
          <span>{t("portal.overview.processing")}</span>
          <strong>
            <a href="/portal/orders?status=processing">{o.processing}</a>
          </strong>
        </div>
        <div className="stat">
          <span>{t("portal.overview.pendingTopUps")}</span>
          <strong>
            <a href="/portal/top-ups">{o.pendingTopUps}</a>
          </strong>
        </div>
      </div>
      <div style={{ height: 16 }} />
      <Card title={t("portal.overview.failedCallbacks")}>
        {o.failedCallbacks.length === 0 ? (
          <p>{t("portal.overview.noFailed")}</p>
        ) : (
          <ul>
            {o.failedCallbacks.map((c) => (
              <li key={c.id}>
                <a href={`/portal/orders/${encodeURIComponent(c.order.orderNo)}`}>{c.order.orderNo}</a> · {formatDateTime(c.createdAt)} ·{" "}
                {c.lastError ?? ""}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
