import type { HopRow } from "@/lib/admin-views/purchase-hops";
import type { Translate } from "@/lib/i18n/messages";
import { formatAmount } from "@/lib/protocol/amount";

/** The hop table's words in the page's language (order page, review queue). */
export function purchaseHopsLabels(t: Translate) {
  return {
    hop: t("review.hop"),
    connection: t("review.connection"),
    upstreamSku: t("review.upstreamSku"),
    number: t("review.number"),
    status: t("common.status"),
    outcome: t("review.outcome"),
    cost: t("review.cost"),
    margin: t("review.margin"),
    states: {
      pending: t("review.state.pending"),
      placed: t("review.state.placed"),
      delivered: t("review.state.delivered"),
      failed: t("review.state.failed"),
      unknown: t("review.state.unknown"),
    },
  };
}

/** Issue 26.2: the sources an order tried, one row per hop, and its margin (order page, review queue). */
export function PurchaseHops(props: {
  hops: HopRow[];
  marginCents: bigint | null;
  testId: string;
  labels: {
    hop: string;
    connection: string;
    upstreamSku: string;
    number: string;
    status: string;
    outcome: string;
    cost: string;
    margin: string;
    /** Each purchase state in words (issue 35.2). */
    states: Record<HopRow["status"], string>;
  };
}) {
  const { labels } = props;
  if (!props.hops.length) return null;
  return (
    <>
      <table data-testid={props.testId}>
        <thead>
          <tr>
            <th>{labels.hop}</th>
            <th>{labels.connection}</th>
            <th>{labels.upstreamSku}</th>
            <th>{labels.number}</th>
            <th>{labels.status}</th>
            <th>{labels.outcome}</th>
            <th>{labels.cost}</th>
          </tr>
        </thead>
        <tbody>
          {props.hops.map((h) => (
            <tr key={h.hop}>
              <td>{h.hop}</td>
              <td>{h.connection}</td>
              <td>{h.upstreamSkuId}</td>
              <td>{h.number}</td>
              <td>{labels.states[h.status]}</td>
              <td className="wrap">{h.outcome ?? "—"}</td>
              <td>{h.costCents === null ? "—" : formatAmount(h.costCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        {labels.margin}: {props.marginCents === null ? "—" : formatAmount(props.marginCents)}
      </p>
    </>
  );
}
