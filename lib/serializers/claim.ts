import type { ClaimView } from "../after-sales/claim-view";
import { ACTION_OF_STATE } from "../after-sales/claim-view";
import { formatAmount } from "../protocol/amount";
import type { ClaimWire } from "../protocol/after-sales-wire";

// After-sales claims on the wire (docs/protocol.md "After-sales"); the same in both profiles.

export function claimWire(c: ClaimView): ClaimWire {
  return {
    claim_id: c.id,
    order_id: c.orderId,
    request_id: c.requestId,
    line: c.line,
    reason: c.reason,
    state: c.state,
    claimed_data: c.claimedLine(),
    created_at: c.createdAt.toISOString(),
    resolved_at: c.resolvedAt ? c.resolvedAt.toISOString() : null,
    resolution:
      c.state === "open"
        ? null
        : {
            action: ACTION_OF_STATE[c.state],
            ...(c.state === "refunded" && c.refundCents !== null ? { refund_amount: formatAmount(c.refundCents) } : {}),
            note: c.resolutionNote ?? "",
          },
  };
}

export function claimListWire(list: { orderId: number; refundedCents: bigint; claims: ClaimView[] }) {
  return {
    ok: true as const,
    order_id: list.orderId,
    refunded_amount: formatAmount(list.refundedCents),
    claims: list.claims.map(claimWire),
  };
}
