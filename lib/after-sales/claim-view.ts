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
};

/** A claim as services hand it to the edge, the console and the CLI (the serializer makes the wire shape). */
export type ClaimView = Omit<ClaimRow, "claimedCiphertext" | "order"> & {
  orderNo: string;
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
  };
}

/** The action that produced a final state. */
export const ACTION_OF_STATE = { replaced: "replace", refunded: "refund", rejected: "reject" } as const;
