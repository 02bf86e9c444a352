import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { db } from "../db/client";
import { appError } from "../errors";
import { formatAmount, NonNegativeAmountInputSchema } from "../protocol/amount";
import { EmailSchema } from "./email";

/** A buyer's credit line (issue 38): 0 removes it. */
export const SetCreditLimitSchema = z.union([
  z.object({ userId: z.uuid(), limit: NonNegativeAmountInputSchema }),
  z.object({ email: EmailSchema, limit: NonNegativeAmountInputSchema }),
]);
/** Parsed (the console parses its form with the schema, the CLI its options). */
export type SetCreditLimitInput = z.output<typeof SetCreditLimitSchema>;

/**
 * Sets how far below zero the buyer's orders may take its balance. A limit
 * below what the buyer owes now is refused (the CHECK on User would refuse it
 * too): the buyer pays back first. Audited with the previous limit.
 */
export async function setCreditLimit(input: SetCreditLimitInput, { actor }: { actor: Actor }) {
  return db().$transaction(async (tx) => {
    const where = "userId" in input ? { id: input.userId } : { email: input.email };
    const user = await tx.user.findUnique({ where, select: { id: true, email: true, creditLimitCents: true } });
    if (!user) throw appError("user_not_found", "no such buyer");
    // The row lock: an order debiting meanwhile cannot slip under the new limit.
    const [{ balanceCents }] = await tx.$queryRaw<{ balanceCents: bigint }[]>`
      SELECT "balanceCents" FROM "User" WHERE "id" = ${user.id}::uuid FOR UPDATE`;
    if (balanceCents < -input.limit) {
      throw appError("conflict", `the buyer owes ${formatAmount(-balanceCents)}: the credit limit cannot be below that`);
    }
    await tx.user.update({ where: { id: user.id }, data: { creditLimitCents: input.limit } });
    await writeAuditLog(tx, {
      actor,
      action: "user.credit_limit",
      targetType: "user",
      targetId: user.id,
      details: { from: formatAmount(user.creditLimitCents), to: formatAmount(input.limit) },
    });
    return {
      userId: user.id,
      email: user.email,
      creditLimit: formatAmount(input.limit),
      previous: formatAmount(user.creditLimitCents),
      balance: formatAmount(balanceCents),
    };
  });
}
