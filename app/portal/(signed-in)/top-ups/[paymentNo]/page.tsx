import { notFound } from "next/navigation";
import { Card, PageHeader } from "@/components/page-header";
import { PaymentStatePoll } from "@/components/payment-state-poll";
import { AppError } from "@/lib/errors";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { getBuyerPayment } from "@/lib/payments/get-buyer-payment";
import { getBuyerOverview } from "@/lib/portal/buyer-overview";
import { requireBuyer } from "@/lib/portal-auth/require-buyer";
import { formatAmount } from "@/lib/protocol/amount";

export const dynamic = "force-dynamic";

/** Issue 36: where the gateway sends the buyer back: the payment's state as the gateway confirmed it (polled), never a credit. */
export default async function PortalPaymentPage({ params }: { params: Promise<{ paymentNo: string }> }) {
  const buyer = await requireBuyer();
  const { t } = await getI18n();
  const { paymentNo } = await params;
  const payment = await getBuyerPayment(buyer.userId, paymentNo).catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404) notFound();
    throw err;
  });
  const overview = await getBuyerOverview({ userId: buyer.userId });
  return (
    <>
      <PageHeader title={t("payments.return.title", { no: payment.payment_no })} description={t("payments.return.help")} />
      <Card>
        <dl className="kv">
          <dt>{t("payments.state")}</dt>
          <dd>
            <span className={`badge badge-${payment.state}`} data-testid="payment-state" data-state={payment.state}>
              {t(`payments.state.${payment.state}`)}
            </span>
          </dd>
          <dt>{t("payments.amount")}</dt>
          <dd>{payment.amount}</dd>
          <dt>{t("payments.created")}</dt>
          <dd>{formatDateTime(new Date(payment.created_at))}</dd>
          <dt>{t(payment.paid_at ? "payments.paidAt" : "payments.expires")}</dt>
          <dd>{formatDateTime(new Date(payment.paid_at ?? payment.expires_at))}</dd>
          <dt>{t("payments.return.balance")}</dt>
          <dd data-testid="payment-balance">{formatAmount(overview.balanceCents)}</dd>
        </dl>
        <p>
          {payment.pay_url ? (
            <>
              <a className="btn btn-primary" href={payment.pay_url}>
                {t("payments.return.payAgain")}
              </a>{" "}
            </>
          ) : null}
          <a href="/portal/top-ups">{t("payments.return.back")}</a>
        </p>
      </Card>
      <PaymentStatePoll paymentNo={payment.payment_no} state={payment.state} />
    </>
  );
}
