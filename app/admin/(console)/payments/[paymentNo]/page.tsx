import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { WholeTable } from "@/components/console-tables";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { newOnceToken } from "@/lib/audit/consume-once-token";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { getPaymentDetail } from "@/lib/payments/list-payments";
import { formatAmount } from "@/lib/protocol/amount";
import { confirmPaymentAction, queryPaymentAction } from "../actions";

export const dynamic = "force-dynamic";

/** Stored JSON (a notify's fields, already redacted; a query's answer) as it came: data, not page words. */
function JsonBlock({ value }: { value: unknown }) {
  return (
    <pre className="example" tabIndex={0} translate="no">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** Issue 36: one payment: its facts, every notify received, the gateway's last answer, and the operator's two actions. */
export default async function PaymentPage({ params }: { params: Promise<{ paymentNo: string }> }) {
  await requireAdmin();
  const { t } = await getI18n();
  const paymentNo = decodeURIComponent((await params).paymentNo);
  const p = paymentNo.length <= 64 ? await getPaymentDetail(paymentNo) : null;
  if (!p) notFound();
  const amount = `${formatAmount(p.amountCents)} ${p.currency}`;
  const labels = { copyLabel: t("common.copy"), copiedLabel: t("common.copied") };
  return (
    <>
      <PageHeader title={`${t("payments.no")} ${p.paymentNo}`}>
        <Link href="/admin/payments">{t("common.back")}</Link>
      </PageHeader>
      <Card>
        <dl className="kv" data-testid="payment-facts">
          <dt>{t("payments.state")}</dt>
          <dd>
            <StatusBadge status={p.state} label={t(`payments.state.${p.state}`)} />
          </dd>
          <dt>{t("payments.admin.buyer")}</dt>
          <dd translate="no">
            <Link href={`/admin/buyers/${p.userId}`}>{p.user.email}</Link>
          </dd>
          <dt>{t("payments.admin.channel")}</dt>
          <dd>
            {p.channel.name} (<span translate="no">{p.channel.driver}</span>)
          </dd>
          <dt>{t("payments.amount")}</dt>
          <dd>{amount}</dd>
          <dt>{t("payments.admin.providerRef")}</dt>
          <dd translate="no">{p.providerRef ?? "—"}</dd>
          <dt>{t("payments.created")}</dt>
          <dd>{formatDateTime(p.createdAt)}</dd>
          <dt>{t("payments.expires")}</dt>
          <dd>{formatDateTime(p.expiresAt)}</dd>
          <dt>{t("payments.paidAt")}</dt>
          <dd>{formatDateTime(p.paidAt)}</dd>
          {p.stateReason ? (
            <>
              <dt>{t("payments.admin.reason")}</dt>
              <dd translate="no">{p.stateReason}</dd>
            </>
          ) : null}
          {p.confirmedBy ? (
            <>
              <dt>{t("payments.admin.confirmedBy")}</dt>
              <dd translate="no">{p.confirmedBy}</dd>
              <dt>{t("payments.admin.reference")}</dt>
              <dd translate="no">{p.confirmReference ?? "—"}</dd>
            </>
          ) : null}
        </dl>
      </Card>
      <Card title={t("payments.admin.notifies")}>
        {p.notifies.length === 0 ? (
          <p>{t("payments.admin.noNotifies")}</p>
        ) : (
          <WholeTable
            testId="payment-notifies"
            columns={[
              { id: "received", header: t("payments.admin.received") },
              { id: "method", header: t("payments.admin.method"), data: true },
              { id: "outcome", header: t("payments.admin.outcome"), wrap: true, data: true },
              { id: "fields", header: t("payments.admin.fields"), wrap: true },
            ]}
            rows={p.notifies.map((n) => ({
              id: String(n.id),
              cells: {
                received: formatDateTime(n.receivedAt),
                method: n.method,
                outcome: n.outcome,
                fields: { node: <JsonBlock value={n.fields} /> },
              },
            }))}
            t={t}
          />
        )}
      </Card>
      <Card title={t("payments.admin.lastQuery")}>
        {p.lastQueryAt ? (
          <>
            <p>
              {t("payments.admin.askedAt")}: {formatDateTime(p.lastQueryAt)}
            </p>
            <JsonBlock value={p.lastQueryAnswer} />
          </>
        ) : (
          <p>{t("payments.admin.noQuery")}</p>
        )}
        <p>{t("payments.admin.queryHelp")}</p>
        <ActionForm
          action={queryPaymentAction}
          submitLabel={t("payments.admin.query")}
          variant="plain"
          keepValues
          testId="query-payment-form"
        >
          <HiddenField name="paymentNo" value={p.paymentNo} />
        </ActionForm>
      </Card>
      {p.state !== "paid" ? (
        <Card title={t("payments.admin.confirm")}>
          <p>{t("payments.admin.confirmHelp")}</p>
          <ActionForm
            action={confirmPaymentAction}
            submitLabel={t("payments.admin.confirm")}
            variant="danger"
            once={newOnceToken()}
            testId="confirm-payment-form"
            confirm={{
              question: t("payments.admin.confirmQuestion", { amount, email: p.user.email, no: p.paymentNo }),
              yes: t("common.yes"),
              no: t("common.no"),
            }}
            {...labels}
          >
            <HiddenField name="paymentNo" value={p.paymentNo} />
            <TextField name="reference" label={t("payments.admin.reference")} required autoComplete="off" />
          </ActionForm>
        </Card>
      ) : null}
    </>
  );
}
