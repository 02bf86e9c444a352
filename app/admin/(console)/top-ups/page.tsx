import { ActionForm } from "@/components/action-form";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { newOnceToken } from "@/lib/audit/consume-once-token";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";
import { listTopUps } from "@/lib/top-ups/list-top-ups";
import { approveTopUpAction, rejectTopUpAction } from "./actions";

export const dynamic = "force-dynamic";

/** Issue 24.2: the queue of buyers' top-up requests, oldest first; each decided once. */
export default async function TopUpsPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const [pending, decided] = await Promise.all([listTopUps({ state: "pending", take: 200 }), listTopUps({ take: 30 })]);
  const labels = { copyLabel: t("common.copy"), copiedLabel: t("common.copied") };
  return (
    <>
      <PageHeader title={t("topUps.title")} description={t("topUps.help")} />
      {pending.length === 0 ? (
        <p>{t("topUps.none")}</p>
      ) : (
        [...pending].reverse().map((r) => (
          <Card key={r.id} title={`#${r.id} · ${r.user.email} · ${formatAmount(r.amountCents)}`}>
            <div data-testid={`top-up-${r.id}`}>
              <dl className="kv">
                <dt>{t("topUps.buyer")}</dt>
                <dd>
                  <a href={`/admin/buyers/${r.userId}`}>{r.user.email}</a>
                </dd>
                <dt>{t("topUps.amount")}</dt>
                <dd>{formatAmount(r.amountCents)}</dd>
                <dt>{t("topUps.reference")}</dt>
                <dd>{r.transferReference}</dd>
                <dt>{t("common.created")}</dt>
                <dd>{formatDateTime(r.createdAt)}</dd>
              </dl>
              <div className="btn-row">
                <ActionForm
                  action={approveTopUpAction}
                  submitLabel={t("topUps.approve")}
                  once={newOnceToken()}
                  testId="approve-top-up-form"
                  confirm={{
                    question: t("topUps.approveConfirm", { amount: formatAmount(r.amountCents), email: r.user.email }),
                    yes: t("topUps.approveYes"),
                    no: t("topUps.approveNo"),
                  }}
                  {...labels}
                >
                  <HiddenField name="id" value={String(r.id)} />
                </ActionForm>
                <ActionForm
                  action={rejectTopUpAction}
                  submitLabel={t("topUps.reject")}
                  variant="danger"
                  once={newOnceToken()}
                  testId="reject-top-up-form"
                  {...labels}
                >
                  <HiddenField name="id" value={String(r.id)} />
                  <TextField name="reason" label={t("topUps.rejectReason")} required />
                </ActionForm>
              </div>
            </div>
          </Card>
        ))
      )}
      <Card title={t("topUps.decided")}>
        <ul>
          {decided
            .filter((r) => r.state !== "pending")
            .map((r) => (
              <li key={r.id}>
                #{r.id} · {r.user.email} · {formatAmount(r.amountCents)} · {t(`topUps.state.${r.state}`)}
                {r.rejectReason ? ` (${r.rejectReason})` : ""} · {formatDateTime(r.decidedAt)}
              </li>
            ))}
        </ul>
      </Card>
    </>
  );
}
