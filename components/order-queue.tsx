import Link from "next/link";
import type { listManualQueue } from "@/lib/admin-views/list-manual-queue";
import { formatDateTime, pickText } from "@/lib/i18n/format";
import type { Locale, Translate } from "@/lib/i18n/messages";
import { formatAmount } from "@/lib/protocol/amount";
import { Card, PageHeader } from "./page-header";
import { StatusBadge } from "./status-badge";

// Issue 34.5: what the manual queue and the review queue show alike.

type QueuedOrder = Awaited<ReturnType<typeof listManualQueue>>[number];

/** The queue's title and introduction, and a card saying so when nothing waits. */
export function OrderQueueHeader({ title, intro, empty, isEmpty }: { title: string; intro: string; empty: string; isEmpty: boolean }) {
  return (
    <>
      <PageHeader title={title} description={intro} />
      {isEmpty ? (
        <Card>
          <p>{empty}</p>
        </Card>
      ) : null}
    </>
  );
}

/** One waiting order: status, products, buyer, amounts and its form's field names (values stay masked), linked to the order page. */
export function QueuedOrderFacts({ order: o, testId, t, locale }: { order: QueuedOrder; testId: string; t: Translate; locale: Locale }) {
  return (
    <dl className="kv" data-testid={testId}>
      <dt>{t("common.status")}</dt>
      <dd>
        <StatusBadge status={o.status} label={t(`orders.status.${o.status}`)} />
      </dd>
      <dt>{t("orders.product")}</dt>
      <dd>{o.items.map((i) => `${pickText(i.title, locale)} × ${i.quantity}`).join(", ")}</dd>
      <dt>{t("orders.buyer")}</dt>
      <dd>{o.user.email}</dd>
      <dt>{t("orders.downstreamNo")}</dt>
      <dd>{o.downstreamOrderNo}</dd>
      <dt>{t("common.amount")}</dt>
      <dd>{formatAmount(o.amountCents)}</dd>
      <dt>{t("common.created")}</dt>
      <dd>{formatDateTime(o.createdAt)}</dd>
      <dt>{t("orders.formData")}</dt>
      <dd>
        {o.formFields.length ? `${o.formFields.join(", ")} (${t("orders.masked")})` : t("orders.noForm")} ·{" "}
        <Link href={`/admin/orders/${o.orderNo}`}>{t("common.details")}</Link>
      </dd>
    </dl>
  );
}
