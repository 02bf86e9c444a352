import Link from "next/link";
import { PagedTable } from "@/components/console-tables";
import { PageHeader } from "@/components/page-header";
import { SearchBar } from "@/components/search-bar";
import { openListPage, type ListPageProps } from "@/lib/admin-auth/open-list-page";
import { one } from "@/lib/admin-views/paging";
import { formatDateTime } from "@/lib/i18n/format";
import { listChannels } from "@/lib/payments/list-channels";
import { listPayments, PAYMENT_STATES } from "@/lib/payments/list-payments";
import { isInt4IdText } from "@/lib/protocol/ids";

export const dynamic = "force-dynamic";

type PaymentState = (typeof PAYMENT_STATES)[number];
const isState = (s: string | undefined): s is PaymentState => PAYMENT_STATES.some((p) => p === s);

/** Issue 36: payments through gateways, newest first, filtered by state, channel and a search text. */
export default async function PaymentsPage({ searchParams }: ListPageProps) {
  const { t, params, paging, q } = await openListPage(searchParams, ["createdAt"] as const, "createdAt");
  // The URL is typed by hand: an unknown state or channel is no filter, rather than an error.
  const rawStatus = one(params, "status");
  const status = isState(rawStatus) ? rawStatus : undefined;
  const rawChannel = one(params, "channel");
  const channelId = isInt4IdText(rawChannel) ? Number(rawChannel) : undefined;
  const search = q?.trim().slice(0, 100) || undefined;
  const [{ total, items }, channels] = await Promise.all([
    listPayments({ status, channelId, q: search, limit: paging.take, offset: paging.skip }),
    listChannels(),
  ]);
  return (
    <>
      <PageHeader title={t("payments.admin.title")} description={t("payments.admin.help")}>
        <Link className="btn" href="/admin/payments/channels" data-testid="payment-channels-link">
          {t("payments.admin.channels")}
        </Link>
      </PageHeader>
      <SearchBar q={search} placeholder={t("payments.admin.searchPlaceholder")} submitLabel={t("payments.admin.filter")}>
        <select name="status" defaultValue={status ?? ""} aria-label={t("payments.state")}>
          <option value="">
            {t("payments.state")}: {t("payments.admin.any")}
          </option>
          {PAYMENT_STATES.map((s) => (
            <option key={s} value={s}>
              {t(`payments.state.${s}`)}
            </option>
          ))}
        </select>
        <select name="channel" defaultValue={channelId ? String(channelId) : ""} aria-label={t("payments.admin.channel")}>
          <option value="">
            {t("payments.admin.channel")}: {t("payments.admin.any")}
          </option>
          {channels.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
      </SearchBar>
      <PagedTable
        testId="payments-table"
        columns={[
          { id: "paymentNo", header: t("payments.no"), data: true },
          { id: "buyer", header: t("payments.admin.buyer"), data: true },
          { id: "channel", header: t("payments.admin.channel") },
          { id: "amount", header: t("payments.amount") },
          { id: "state", header: t("payments.state") },
          { id: "providerRef", header: t("payments.admin.providerRef"), data: true },
          { id: "createdAt", header: t("payments.created") },
          { id: "reason", header: t("payments.admin.reason"), wrap: true, data: true },
        ]}
        rows={items.map((p) => ({
          id: p.payment_no,
          cells: {
            paymentNo: { text: p.payment_no, href: `/admin/payments/${encodeURIComponent(p.payment_no)}` },
            buyer: p.buyer,
            channel: p.channel,
            amount: `${p.amount} ${p.currency}`,
            state: { text: t(`payments.state.${p.state}`), badge: p.state },
            providerRef: p.provider_ref ?? "—",
            createdAt: formatDateTime(new Date(p.created_at)),
            reason: p.reason ?? "",
          },
        }))}
        total={total}
        paging={paging}
        t={t}
      />
    </>
  );
}
