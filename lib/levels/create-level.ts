import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { parseInput } from "../input/parse-input";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/tx";
import { appError } from "../errors";
import { LevelNameSchema, LevelSlugSchema } from "./level-input";

export const CreateLevelSchema = z.object({ slug: LevelSlugSchema, name: LevelNameSchema });
export type CreateLevelInput = z.input<typeof CreateLevelSchema>;

/**
 * Adds a member level (issue 12.4), after the existing ones in the pickers
 * (the default level keeps its place first). It prices nothing until an
 * administrator sets SKU prices for it: a SKU without a level price sells at
 * its own price. Audited as `level.create`.
 */
export async function createLevel(raw: CreateLevelInput, { actor }: { actor: Actor }) {
  const input = parseInput(CreateLevelSchema, raw);
  try {
    return await db().$transaction(async (tx) => {
      const last = await tx.memberLevel.aggregate({ _max: { sortOrder: true } });
      const level = await tx.memberLevel.create({
        data: { slug: input.slug, name: input.name, sortOrder: (last._max.sortOrder ?? 0) + 1 },
        select: { id: true, slug: true, name: true, isDefault: true, sortOrder: true },
      });
      await writeAuditLog(tx, {
        actor,
        action: "level.create",
        targetType: "member_level",
        targetId: String(level.id),
        details: { slug: level.slug, name: input.name },
      });
      return level;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw appError("conflict", `a member level with slug "${input.slug}" already exists`);
    throw err;
  }
}
