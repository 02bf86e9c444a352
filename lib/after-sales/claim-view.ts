import { decryptText } from "../crypto/secret-box";
import type { ClaimState } from "../generated/prisma/enums";

/** A claim row as CLAIM_SELECT reads it. */
export type ClaimRow = {
  id: number;
  orderId: number;
  requestId: string;
  line: number;
  reason: string;
  state: ClaimState;
  claimedCiphertext: Uint8Array;
  refundCents: bigint | null;
  resolutionNote: string | null;
  resolvedBy: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
  upstreamState: string | null;
  upstreamError: string | null;
  order: { orderNo: string };
  replacementPurchase: { status: string; hop: number; downstreamOrderNo: string; connection: { name: string } } | null;
};

/** A claim as services hand it to the edge, the console and the CLI (the serializer makes the wire shape). */
export type ClaimView = Omit<ClaimRow, "claimedCiphertext" | "order" | "replacementPurchase"> & {
  orderNo: string;
  /** Issue 26.3: where a replacement bought from an upstream source stands (console, claim:list; not on the wire), else null. */
  replacementNote: string | null;
  /** The line as claimed (a card key): decrypted only where its owner or a revealing administrator reads it. */
  claimedLine: () => string;
};

export const CLAIM_SELECT = {
  id: true,
  orderId: true,
  requestId: true,
  line: true,
  reason: true,
  state: true,
  claimedCiphertext: true,
  refundCents: true,
  resolutionNote: true,
  resolvedBy: true,
  createdAt: true,
  resolvedAt: true,
  upstreamState: true,
  upstreamError: true,
  order: { select: { orderNo: true } },
  replacementPurchase: { select: { status: true, hop: true, downstreamOrderNo: true, connection: { select: { name: true } } } },
} as const;

export function toClaimView(row: ClaimRow): ClaimView {
  return {
    id: row.id,
    orderId: row.orderId,
    orderNo: row.order.orderNo,
    requestId: row.requestId,
    line: row.line,
    reason: row.reason,
    state: row.state,
    claimedLine: () => decryptText(row.claimedCiphertext),
    refundCents: row.refundCents,
    resolutionNote: row.resolutionNote,
    resolvedBy: row.resolvedBy,
    createdAt: row.createdAt,
    resolvedAt: row.resolvedAt,
    upstreamState: row.upstreamState,
    upstreamError: row.upstreamError,
    replacementNote: replacementNote(row.replacementPurchase),
  };
}

/** Decision 0059: the claim stays open while its replacement is bought; this says how that stands. */
function replacementNote(p: ClaimRow["replacementPurchase"]): string | null {
  if (!p) return null;
  const at = `${p.connection.name}, ${p.downstreamOrderNo}`;
  if (p.status === "pending" || p.status === "placed") return `buying a replacement (source ${p.hop}: ${at})`;
  if (p.status === "delivered") return `replacement bought (${at})`;
  if (p.status === "unknown")
    return `replacement purchase outcome unknown (${at}): check with the upstream, then type the line, refund or reject`;
  return `every upstream source refused the replacement (last: ${at}): type the line, refund or reject`;
}

/** The action that produced a final state. */
export const ACTION_OF_STATE = { replaced: "replace", refunded: "refund", rejected: "reject" } as const;
