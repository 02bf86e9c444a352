import { ActionForm } from "@/components/action-form";
import { PagedTable } from "@/components/console-tables";
import { TextField } from "@/components/form-fields";
import { Card, PageHeader } from "@/components/page-header";
import { NoMailBanner } from "../no-mail-banner";
import { SearchBar } from "@/components/search-bar";
import { openListPage, type ListPageProps } from "@/lib/admin-auth/open-list-page";
import { BUYER_SORTS, listBuyers } from "@/lib/admin-views/list-buyers";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import { formatAmount } from "@/lib/protocol/amount";
import { createBuyerAction, inviteBuyerAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function BuyersPage({ searchParams }: ListPageProps) {
  const { t, locale, paging, q } = await openListPage(searchParams, BUYER_SORTS, "createdAt");
  const { total, rows } = await listBuyers({ paging, q });
  return (
    <>
      <PageHeader title={t("buyers.title")} />
      <NoMailBanner />
      <SearchBar q={q} placeholder={t("buyers.searchPlaceholder")} submitLabel={t("common.search")} />
      <PagedTable
        testId="buyers-table"
        columns={[
          { id: "email", header: t("common.email"), sortable: true },
          { id: "balanceCents", header: t("buyers.balance"), sortable: true },
          { id: "level", header: t("buyers.level") },
          { id: "status", header: t("common.status") },
          { id: "keys", header: t("nav.apiKeys") },
          { id: "createdAt", header: t("common.created"), sortable: true },
        ]}
        rows={rows.map((u) => ({
          id: u.id,
          cells: {
            email: { text: u.email, href: `/admin/buyers/${u.id}` },
            balanceCents: formatAmount(u.balanceCents),
            level: pickText(u.memberLevel.name, locale) || u.memberLevel.slug,
            keys: String(u._count.credentials),
            // Issue 24.1: a portal sign-up waiting here is what the administrator has to approve.
            status: u.status === "active" && u.registrationPending ? t("topUps.pendingRegistration") : t(`buyers.status.${u.status}`),
            createdAt: formatDateTime(u.createdAt),
          },
        }))}
        total={total}
        paging={paging}
        t={t}
      />
      <div style={{ height: 16 }} />
      <Card title={t("buyers.create")}>
        <ActionForm action={createBuyerAction} submitLabel={t("buyers.create")} testId="create-buyer-form">
          <TextField name="email" type="email" label={t("common.email")} required />
          <TextField name="points" label={t("buyers.initialPoints")} defaultValue="0.00" inputMode="decimal" />
        </ActionForm>
      </Card>
      <div style={{ height: 16 }} />
      <Card title={t("topUps.invite")}>
        <p>{t("topUps.inviteHelp")}</p>
        <ActionForm
          action={inviteBuyerAction}
          submitLabel={t("topUps.invite")}
          testId="invite-buyer-form"
          copyLabel={t("common.copy")}
          copiedLabel={t("common.copied")}
        >
          <TextField name="email" type="email" label={t("common.email")} required />
        </ActionForm>
      </Card>
    </>
  );
}
