import { db } from "../db/client";
import { appError } from "../errors";
import { isUniqueViolation } from "../db/tx";
import { changeBalance } from "../points/change-balance";
import { formatAmount } from "../protocol/amount";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

export interface CreateUserInput {
  email: string;
  initialPointsCents?: bigint;
  actor: Actor;
}

/** Creates a buyer on the default member level, with an opening ledger row when given points, audited in the same transaction. */
export async function createUser({ email, initialPointsCents = 0n, actor }: CreateUserInput) {
  if (initialPointsCents < 0n) throw appError("bad_request", "initial points cannot be negative");
  try {
    return await db().$transaction(async (tx) => {
      const level = await tx.memberLevel.findFirstOrThrow({ where: { isDefault: true } });
      const user = await tx.user.create({ data: { email: email.trim().toLowerCase(), memberLevelId: level.id } });
      if (initialPointsCents > 0n) {
        user.balanceCents = await changeBalance(tx, {
          userId: user.id,
          deltaCents: initialPointsCents,
          reason: "opening balance",
          adminUserId: actor.kind === "admin" ? actor.id : undefined,
        });
      }
      await writeAuditLog(tx, {
        actor,
        action: "user.create",
        targetType: "user",
        targetId: user.id,
        details: { email: user.email, points: formatAmount(user.balanceCents) },
      });
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw appError("conflict", `a user with email ${email} already exists`);
    throw err;
  }
}
