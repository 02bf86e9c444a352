import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { HiddenField, TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { routeId } from "@/lib/admin-views/route-id";
import { db } from "@/lib/db/client";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";
import { loadSkuSources } from "@/lib/upstream/load-sku-sources";
import { skuSourcesAction } from "../../../sources-actions";

export const dynamic = "force-dynamic";

/** Issue 26.1: a SKU's sources panel: the ordered list, its policy, and one change per form (audited by the service). */
export default async function SkuSourcesPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdmin();
  const { t } = await getI18n();
  const id = await routeId(params);
  const sku = id ? await db().sku.findUnique({ where: { id }, select: { id: true, skuCode: true, productId: true } }) : null;
  const list = sku ? await loadSkuSources(sku.id) : null;
  if (!sku || !list) notFound();
  const amount = (c: bigint | null) => (c === null ? "—" : formatAmount(c));
  const hidden = (
    <>
      <HiddenField name="skuCode" value={sku.skuCode} />
      <HiddenField name="skuId" value={String(sku.id)} />
    </>
  );
  const change = (op: string, position: number, label: string, variant: "plain" | "danger" = "plain", extra?: React.ReactNode) => (
    <ActionForm action={skuSourcesAction} submitLabel={label} variant={variant} testId={`source-${op}-${position}`}>
      {hidden}
      <HiddenField name="op" value={op} />
      <HiddenField name="position" value={String(position)} />
      {extra}
    </ActionForm>
  );
  return (
    <>
      <PageHeader title={t("sources.title", { sku: sku.skuCode })} description={t("sources.intro")}>
        <Link href={`/admin/catalog/products/${sku.productId}`}>{t("common.back")}</Link>
      </PageHeader>
      <Card>
        {!list.own ? <p className="help">{t("sources.default")}</p> : null}
        {/* Scrolls sideways on a phone; focusable so the keyboard can scroll it (issue 24.4). */}
        <div className="table-wrap" tabIndex={0} role="region" aria-label={t("sources.title", { sku: sku.skuCode })}>
          <table data-testid="sources-table">
            <thead>
              <tr>
                <th>{t("sources.position")}</th>
                <th>{t("sources.kind")}</th>
                <th>{t("sources.maxCost")}</th>
                <th>{t("sources.lastCost")}</th>
                <th>{t("sources.lastStock")}</th>
                <th>{t("sources.breaker")}</th>
                <th>{t("sources.enabled")}</th>
                <th>{t("common.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {list.sources.map((s) => (
                <tr key={`${s.position}-${s.id ?? "default"}`}>
                  <td>{s.position}</td>
                  <td>
                    {s.kind === "local" ? t("sources.local") : `${s.connectionName ?? "?"} (#${s.connectionId}) · SKU ${s.upstreamSkuId}`}
                  </td>
                  <td>
                    {s.kind === "local"
                      ? "—"
                      : s.maxCostCents !== null
                        ? amount(s.maxCostCents)
                        : list.skuMaxCostCents !== null
                          ? amount(list.skuMaxCostCents)
                          : "—"}
                  </td>
                  <td>{amount(s.knownCostCents)}</td>
                  <td>{s.knownStock ?? "—"}</td>
                  <td>{s.kind === "local" ? "—" : s.breaker}</td>
                  <td>{s.isEnabled ? "✓" : "—"}</td>
                  <td>
                    {s.position > 1 && s.kind !== "local"
                      ? change("move", s.position, t("sources.up"), "plain", <HiddenField name="to" value={String(s.position - 1)} />)
                      : null}
                    {change(s.isEnabled ? "disable" : "enable", s.position, s.isEnabled ? t("sources.disable") : t("sources.enable"))}
                    {change("remove", s.position, t("sources.remove"), "danger")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <Card title={t("sources.policy")}>
        <ActionForm action={skuSourcesAction} submitLabel={t("sources.setPolicy")} testId="source-policy">
          {hidden}
          <HiddenField name="op" value="policy" />
          <div className="field">
            <label htmlFor="f-policy">{t("sources.policy")}</label>
            <select id="f-policy" name="policy" defaultValue={list.policy}>
              <option value="priority">{t("sources.policy.priority")}</option>
              <option value="cheapest">{t("sources.policy.cheapest")}</option>
            </select>
            <div className="help">{t("sources.policyHelp")}</div>
          </div>
        </ActionForm>
      </Card>
      <Card title={t("sources.addUpstream")}>
        <ActionForm action={skuSourcesAction} submitLabel={t("sources.addUpstream")} testId="source-add-upstream">
          {hidden}
          <HiddenField name="op" value="add-upstream" />
          <TextField name="connectionId" label={t("sources.connection")} inputMode="numeric" required />
          <TextField name="upstreamSkuId" label={t("sources.upstreamSkuId")} inputMode="numeric" required />
          <TextField name="maxCostCents" label={t("sources.maxCost")} inputMode="decimal" help={t("sources.maxCostHelp")} />
        </ActionForm>
        {list.sources.some((s) => s.kind === "local") ? null : (
          <ActionForm action={skuSourcesAction} submitLabel={t("sources.addLocal")} variant="plain" testId="source-add-local">
            {hidden}
            <HiddenField name="op" value="add-local" />
          </ActionForm>
        )}
      </Card>
    </>
  );
}
