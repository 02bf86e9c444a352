import Link from "next/link";
import { ActionForm } from "@/components/action-form";
import { HiddenField, TextArea, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { listClaims } from "@/lib/after-sales/list-claims";
import { claimOutlooks, type ClaimOutlook } from "@/lib/after-sales/replacement-outlook";
import { newOnceToken } from "@/lib/audit/consume-once-token";
import { formatDateTime } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import type { Translate } from "@/lib/i18n/messages";
import { formatAmount } from "@/lib/protocol/amount";
import { refundOrderPartAction, resolveClaimAction, revealClaimLineAction } from "./actions";

/** Our claim's state at the upstream (lib/after-sales/claim-upstream.ts). */
type UpstreamClaimState = "pending" | "open" | "replaced" | "refunded" | "rejected" | "unsupported" | "failed";

export const dynamic = "force-dynamic";

/**
 * Issue 26.3: buyers' claims of one delivered line, open ones first. The
 * claimed line (a card key) stays masked until an administrator reveals it
 * (audited). Each resolution is a money form with a one-time token. Issue
 * 33.4: each claim shows what its order has refunded already and what a
 * replace would do (refused, our next key, or a purchase upstream at what
 * cost); a replace that would be refused is not offered.
 */
export default async function ClaimsPage() {
  await requireAdmin();
  const { t } = await getI18n();
  const [open, recent] = await Promise.all([listClaims({ state: "open" }), listClaims({ limit: 50 })]);
  const resolved = recent.filter((c) => c.state !== "open");
  const outlooks = await claimOutlooks(open);
  return (
    <>
      <PageHeader title={t("claims.title")} description={t("claims.intro")} />
      {open.length === 0 ? (
        <Card>
          <p>{t("claims.empty")}</p>
        </Card>
      ) : null}
      {open.map((c) => {
        const outlook = outlooks.get(c.id);
        const replaceRefused = outlook?.replace.kind === "refunded_in_full" || outlook?.replace.kind === "limit_reached";
        return (
          <Card key={c.id} title={`#${c.id} · ${c.orderNo}`}>
            <dl className="kv" data-testid={`claim-${c.id}`}>
              <dt>{t("claims.order")}</dt>
              <dd>
                <Link href={`/admin/orders/${c.orderNo}`}>{c.orderNo}</Link>
              </dd>
              <dt>{t("claims.line")}</dt>
              <dd>
                {c.line} · <span aria-label={t("claims.masked")}>••••••••</span>
              </dd>
              <dt>{t("claims.reason")}</dt>
              <dd className="wrap">{c.reason}</dd>
              <dt>{t("common.created")}</dt>
              <dd>{formatDateTime(c.createdAt)}</dd>
              <dt>{t("claims.upstream")}</dt>
              <dd>{c.upstreamState ? `${c.upstreamState}${c.upstreamError ? ` (${c.upstreamError})` : ""}` : "—"}</dd>
              {outlook ? (
                <>
                  <dt>{t("claims.orderRefunded")}</dt>
                  <dd data-testid={`claim-refunded-${c.id}`}>
                    {t("claims.refundedOf", { refunded: formatAmount(outlook.refundedCents), amount: formatAmount(outlook.amountCents) })}
                  </dd>
                  <dt>{t("claims.replaceOutlook")}</dt>
                  <dd className="wrap" data-testid={`claim-outlook-${c.id}`}>
                    {outlookText(outlook, t)}
                  </dd>
                </>
              ) : null}
              {c.replacementNote ? (
                <>
                  <dt>{t("claims.replacementStatus")}</dt>
                  <dd className="wrap" data-testid={`claim-replacement-${c.id}`}>
                    {c.replacementNote}
                  </dd>
                </>
              ) : null}
            </dl>
            <ActionForm
              action={revealClaimLineAction}
              submitLabel={t("claims.reveal")}
              variant="plain"
              keepValues
              testId={`reveal-claim-${c.id}`}
              copyLabel={t("common.copy")}
              copiedLabel={t("common.copied")}
            >
              <HiddenField name="claimId" value={String(c.id)} />
            </ActionForm>
            <div className="queue-item">
              {replaceRefused ? null : (
                <ActionForm action={resolveClaimAction} submitLabel={t("claims.replace")} testId={`replace-${c.id}`} once={newOnceToken()}>
                  <HiddenField name="claimId" value={String(c.id)} />
                  <HiddenField name="orderNo" value={c.orderNo} />
                  <HiddenField name="action" value="replace" />
                  <TextArea name="replacement" id={`replacement-${c.id}`} label={t("claims.replacement")} rows={2} />
                </ActionForm>
              )}
              <ActionForm action={resolveClaimAction} submitLabel={t("claims.refund")} testId={`refund-${c.id}`} once={newOnceToken()}>
                <HiddenField name="claimId" value={String(c.id)} />
                <HiddenField name="orderNo" value={c.orderNo} />
                <HiddenField name="action" value="refund" />
              </ActionForm>
              <ActionForm
                action={resolveClaimAction}
                submitLabel={t("claims.reject")}
                variant="danger"
                testId={`reject-${c.id}`}
                once={newOnceToken()}
              >
                <HiddenField name="claimId" value={String(c.id)} />
                <HiddenField name="orderNo" value={c.orderNo} />
                <HiddenField name="action" value="reject" />
                <TextField name="note" id={`note-${c.id}`} label={t("claims.rejectReason")} required />
              </ActionForm>
            </div>
          </Card>
        );
      })}
      <Card title={t("claims.partialTitle")}>
        <p>{t("claims.partialIntro")}</p>
        <ActionForm action={refundOrderPartAction} submitLabel={t("claims.partialSubmit")} testId="partial-refund" once={newOnceToken()}>
          <TextField name="orderNo" id="refund-order-no" label={t("claims.order")} required />
          <TextField name="lines" id="refund-lines" label={t("claims.lines")} />
          <TextField name="amount" id="refund-amount" label={t("common.amount")} />
          <TextField name="reason" id="refund-reason" label={t("claims.reason")} required />
        </ActionForm>
      </Card>
      {resolved.length ? (
        <Card title={t("claims.resolvedTitle")}>
          {/* Scrolls sideways on a phone; focusable so the keyboard can scroll it (issue 24.4). */}
          <div className="table-wrap" tabIndex={0} role="region" aria-label={t("claims.resolvedTitle")}>
            <table className="table" data-testid="claims-resolved">
              <thead>
                <tr>
                  <th>#</th>
                  <th>{t("claims.order")}</th>
                  <th>{t("claims.line")}</th>
                  <th>{t("common.status")}</th>
                  <th>{t("claims.refund")}</th>
                  <th>{t("claims.by")}</th>
                  <th>{t("claims.upstream")}</th>
                </tr>
              </thead>
              <tbody>
                {resolved.map((c) => (
                  <tr key={c.id}>
                    <td>{c.id}</td>
                    <td>
                      <Link href={`/admin/orders/${c.orderNo}`}>{c.orderNo}</Link>
                    </td>
                    <td>{c.line}</td>
                    <td>{t(`claims.state.${c.state}`)}</td>
                    <td>{c.refundCents === null ? "—" : formatAmount(c.refundCents)}</td>
                    <td>{c.resolvedBy ?? "—"}</td>
                    <td>{c.upstreamState ? t(`claims.upstream.${c.upstreamState as UpstreamClaimState}`) : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
    </>
  );
}

/** Issue 33.4: what a replace without a typed line would do, in the administrator's language. */
function outlookText(o: ClaimOutlook, t: Translate): string {
  const r = o.replace;
  switch (r.kind) {
    case "refunded_in_full":
      return t("claims.outlook.refundedInFull");
    case "limit_reached":
      return t("claims.outlook.limitReached", { used: o.replacesUsed, allowed: o.replacesAllowed });
    case "purchase":
      return t("claims.outlook.purchase");
    case "local_key":
      return t("claims.outlook.localKey");
    case "typed_line_only":
      return t("claims.outlook.typedLineOnly");
    case "upstream":
      return r.knownCostCents === null
        ? t("claims.outlook.upstreamUnknownCost", { source: r.connectionName, ceiling: formatAmount(r.ceilingCents) })
        : t("claims.outlook.upstream", {
            source: r.connectionName,
            cost: formatAmount(r.knownCostCents),
            ceiling: formatAmount(r.ceilingCents),
          });
  }
}
