import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { formatAmount, NonNegativeAmountInputSchema } from "../protocol/amount";

export const UpstreamBalanceAlertSchema = z.strictObject({
  connectionId: z.coerce.number().int().positive("must be a connection id"),
  /** An amount ("100.00"), or null to switch the alert off. */
  below: z.union([z.null(), NonNegativeAmountInputSchema]),
});

/** Issue 25: alert when this upstream's balance (as its ping reports it) falls below an amount; audited. */
export async function setUpstreamBalanceAlert(input: z.input<typeof UpstreamBalanceAlertSchema>, { actor }: { actor: Actor }) {
  const parsed = UpstreamBalanceAlertSchema.safeParse(input);
  if (!parsed.success) throw appError("bad_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const cents = parsed.data.below;
  const id = parsed.data.connectionId;
  return db().$transaction(async (tx) => {
    const { count } = await tx.upstreamConnection.updateMany({ where: { id }, data: { alertBalanceCents: cents } });
    if (!count) throw appError("not_found", `no upstream connection ${id}`);
    await writeAuditLog(tx, {
      actor,
      action: "alert.upstream_balance",
      targetType: "upstream_connection",
      targetId: String(id),
      details: { below: cents === null ? null : formatAmount(cents) },
    });
    return { connection_id: id, balance_below: cents === null ? null : formatAmount(cents) };
  });
}
