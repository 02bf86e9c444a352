import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { parseInput } from "../input/parse-input";
import { db } from "../db/client";
import { appError } from "../errors";
import { LevelSlugSchema } from "../levels/level-input";
import { EmailSchema } from "./email";

/** The buyer by id (console) or by e-mail (CLI), and the level's slug. */
export const SetMemberLevelSchema = z.union([
  z.object({ userId: z.uuid(), level: LevelSlugSchema }),
  z.object({ email: EmailSchema, level: LevelSlugSchema }),
]);
export type SetMemberLevelInput = z.input<typeof SetMemberLevelSchema>;

/**
 * Moves a buyer to another member level (D16, issue 12.4): from the next
 * order on, place_order prices the buyer's orders with that level's SKU
 * prices. Audited as `user.member_level` with the previous level.
 */
export async function setMemberLevel(raw: SetMemberLevelInput, { actor }: { actor: Actor }) {
  const input = parseInput(SetMemberLevelSchema, raw);
  return db().$transaction(async (tx) => {
    const level = await tx.memberLevel.findUnique({ where: { slug: input.level }, select: { id: true, slug: true } });
    if (!level) throw appError("not_found", `no member level with slug "${input.level}"`);
    const where = "userId" in input ? { id: input.userId } : { email: input.email };
    const user = await tx.user.findUnique({ where, select: { id: true, email: true, memberLevel: { select: { slug: true } } } });
    if (!user)
      throw "userId" in input ? appError("not_found", "no such buyer") : appError("user_not_found", `no user with email ${input.email}`);
    await tx.user.update({ where: { id: user.id }, data: { memberLevelId: level.id } });
    await writeAuditLog(tx, {
      actor,
      action: "user.member_level",
      targetType: "user",
      targetId: user.id,
      details: { from: user.memberLevel.slug, to: level.slug },
    });
    return { userId: user.id, email: user.email, level: level.slug, previousLevel: user.memberLevel.slug };
  });
}
