import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { apiKeyRows } from "@/components/api-key-list";
import { DataTable } from "@/components/data-table";
import { HiddenField, TextField } from "@/components/form-fields";
import { LedgerTable } from "@/components/ledger-table";
import { Card, PageHeader } from "@/components/page-header";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { newOnceToken } from "@/lib/audit/consume-once-token";
import { getBuyer } from "@/lib/admin-views/list-buyers";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { formatAmount } from "@/lib/protocol/amount";
import { createApiKeyAction, disableApiKeyAction } from "../../api-keys/actions";
import {
  adjustPointsAction,
  approveRegistrationAction,
  disableBuyerAction,
  resetBuyerTwoFactorAction,
  setMemberLevelAction,
} from "../actions";
import { listLevels } from "@/lib/levels/list-levels";
import { getBuyerPrices } from "@/lib/prices/get-buyer-prices";
import { setContractPriceAction, setCreditLimitAction } from "../price-actions";

export const dynamic = "force-dynamic";

export default async function BuyerPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdmin();
  const { t, locale } = await getI18n();
  const [user, levels] = await Promise.all([getBuyer((await params).id), listLevels()]);
  if (!user) notFound();
  const prices = await getBuyerPrices(user.id);
  const labels = { previous: t("common.previous"), next: t("common.next"), pageOf: t("common.pageOf"), noRows: t("common.noRows") };
  return (
    <>
      <PageHeader title={user.email}>
        <Link href="/admin/buyers">{t("common.back")}</Link>
      </PageHeader>
      <Card>
        <dl className="kv">
          <dt>{t("buyers.balance")}</dt>
          <dd data-testid="buyer-balance">{formatAmount(user.balanceCents)}</dd>
          <dt>{t("buyers.level")}</dt>
          <dd>{pickText(user.memberLevel.name, locale) || user.memberLevel.slug}</dd>
          <dt>{t("buyers.creditLimit")}</dt>
          <dd data-testid="buyer-credit">
            {formatAmount(prices.creditLimitCents)} ({t("buyers.creditUsed")}: {formatAmount(prices.creditUsedCents)})
          </dd>
          <dt>{t("common.status")}</dt>
          <dd>{t(`buyers.status.${user.status}`)}</dd>
          <dt>{t("common.created")}</dt>
          <dd>{formatDateTime(user.createdAt)}</dd>
          <dt>{t("security.title")}</dt>
          <dd data-testid="buyer-two-factor">{user.totpEnabled ? t("security.enabled") : t("security.disabledState")}</dd>
        </dl>
        {user.totpEnabled ? (
          <ActionForm
            action={resetBuyerTwoFactorAction}
            submitLabel={t("security.disable")}
            variant="danger"
            testId="reset-two-factor-form"
          >
            <HiddenField name="email" value={user.email} />
          </ActionForm>
        ) : null}
      </Card>
      {user.status === "active" ? (
        <Card>
          {user.registrationPending ? (
            <ActionForm action={approveRegistrationAction} submitLabel={t("topUps.approveRegistration")} testId="approve-registration-form">
              <p>{t("topUps.pendingRegistration")}</p>
              <HiddenField name="userId" value={user.id} />
            </ActionForm>
          ) : null}
          <ActionForm action={disableBuyerAction} submitLabel={t("topUps.disable")} variant="danger" testId="disable-buyer-form">
            <HiddenField name="email" value={user.email} />
          </ActionForm>
        </Card>
      ) : null}
      <Card title={t("buyers.changeLevel")}>
        <ActionForm action={setMemberLevelAction} submitLabel={t("common.save")} keepValues testId="member-level-form">
          <HiddenField name="userId" value={user.id} />
          <div className="field">
            <label htmlFor="f-level">{t("buyers.level")}</label>
            <select id="f-level" name="level" defaultValue={user.memberLevel.slug}>
              {levels.map((l) => (
                <option key={l.id} value={l.slug}>
                  {pickText(l.name, locale) || l.slug}
                </option>
              ))}
            </select>
          </div>
        </ActionForm>
      </Card>
      <Card title={t("buyers.creditLimit")}>
        <ActionForm action={setCreditLimitAction} submitLabel={t("common.save")} keepValues testId="credit-limit-form">
          <HiddenField name="userId" value={user.id} />
          <TextField
            name="limit"
            label={t("buyers.creditLimit")}
            help={t("buyers.creditHelp")}
            inputMode="decimal"
            defaultValue={formatAmount(prices.creditLimitCents)}
            required
          />
        </ActionForm>
      </Card>
      <Card title={t("buyers.contractPrices")}>
        <DataTable
          testId="contract-prices-table"
          columns={[
            { id: "skuCode", header: t("buyers.skuCode"), data: true },
            { id: "price", header: t("buyers.price"), data: true },
            { id: "updated", header: t("buyers.updated") },
          ]}
          rows={prices.contracts.map((c) => ({
            id: String(c.skuId),
            cells: { skuCode: c.skuCode, price: formatAmount(c.priceCents), updated: formatDateTime(c.updatedAt) },
          }))}
          total={prices.contracts.length}
          pager={false}
          page={1}
          pageSize={Math.max(prices.contracts.length, 1)}
          labels={labels}
        />
        <div style={{ height: 12 }} />
        <ActionForm action={setContractPriceAction} submitLabel={t("common.save")} testId="contract-price-form">
          <HiddenField name="userId" value={user.id} />
          <HiddenField name="email" value={user.email} />
          <TextField name="sku_code" label={t("buyers.skuCode")} required />
          <TextField name="price" label={t("buyers.price")} help={t("buyers.contractHelp")} inputMode="decimal" />
        </ActionForm>
      </Card>
      <Card title={t("buyers.adjust")}>
        <ActionForm action={adjustPointsAction} submitLabel={t("buyers.adjust")} testId="adjust-points-form" once={newOnceToken()}>
          <HiddenField name="email" value={user.email} />
          <TextField name="amount" label={t("common.amount")} help={t("buyers.adjustHelp")} inputMode="decimal" required />
          <TextField name="reason" label={t("buyers.adjustReason")} required />
        </ActionForm>
      </Card>
      <Card title={t("buyers.ledger")}>
        <LedgerTable entries={user.ledger} t={t} testId="ledger-table" withOrder />
      </Card>
      <Card title={t("apiKeys.title")}>
        <DataTable
          testId="buyer-keys-table"
          columns={[
            { id: "apiKey", header: t("apiKeys.key"), data: true },
            { id: "status", header: t("common.status") },
            { id: "actions", header: t("common.actions") },
            { id: "name", header: t("common.name") },
            { id: "lastUsedAt", header: t("apiKeys.lastUsed") },
            { id: "createdAt", header: t("common.created") },
          ]}
          rows={apiKeyRows(
            user.credentials.map((k) => ({
              id: k.id,
              apiKey: k.apiKey,
              name: k.name,
              isActive: k.isActive,
              lastUsed: k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t("apiKeys.never"),
              created: formatDateTime(k.createdAt),
            })),
            { active: t("apiKeys.active"), disabled: t("apiKeys.disabled"), disable: t("apiKeys.disable") },
            disableApiKeyAction,
          )}
          total={user.credentials.length}
          pager={false}
          page={1}
          pageSize={Math.max(user.credentials.length, 1)}
          labels={labels}
        />
        <div style={{ height: 12 }} />
        <ActionForm
          action={createApiKeyAction}
          submitLabel={t("apiKeys.create")}
          copyLabel={t("common.copy")}
          copiedLabel={t("common.copied")}
        >
          <HiddenField name="email" value={user.email} />
          <TextField name="name" label={t("common.name")} />
        </ActionForm>
      </Card>
    </>
  );
}
