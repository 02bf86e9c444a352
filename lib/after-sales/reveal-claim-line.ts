import { decryptText } from "../crypto/secret-box";
import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

/**
 * The claimed line (a card key) in clear, for an administrator who asked to
 * see it: the reveal is audited in the same transaction (secrets only on
 * purpose, house rule), like reveal-card-key.ts.
 */
export async function revealClaimLine({ claimId, actor }: { claimId: number; actor: Actor }): Promise<string> {
  return db().$transaction(async (tx) => {
    const claim = await tx.afterSalesClaim.findUnique({
      where: { id: claimId },
      select: { claimedCiphertext: true, line: true, order: { select: { orderNo: true } } },
    });
    if (!claim) throw appError("claim_not_found", `claim ${claimId} not found`);
    await writeAuditLog(tx, {
      actor,
      action: "claim.reveal",
      targetType: "order",
      targetId: claim.order.orderNo,
      details: { claimId, line: claim.line },
    });
    return decryptText(claim.claimedCiphertext);
  });
}
