import { z } from "zod";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { parseInput } from "../input/parse-input";
import { db } from "../db/client";
import { appError } from "../errors";
import { LevelNameSchema, LevelSlugSchema } from "./level-input";

export const RenameLevelSchema = z.object({ slug: LevelSlugSchema, name: LevelNameSchema });
export type RenameLevelInput = z.input<typeof RenameLevelSchema>;

/**
 * Changes a level's display name (both languages). The slug stays: catalogue
 * files and scripts name levels by it, and a renamed slug would silently stop
 * matching them. Audited as `level.rename` with the previous name.
 */
export async function renameLevel(raw: RenameLevelInput, { actor }: { actor: Actor }) {
  const input = parseInput(RenameLevelSchema, raw);
  return db().$transaction(async (tx) => {
    const level = await tx.memberLevel.findUnique({ where: { slug: input.slug }, select: { id: true, name: true } });
    if (!level) throw appError("not_found", `no member level with slug "${input.slug}"`);
    const renamed = await tx.memberLevel.update({
      where: { id: level.id },
      data: { name: input.name },
      select: { id: true, slug: true, name: true, isDefault: true, sortOrder: true },
    });
    await writeAuditLog(tx, {
      actor,
      action: "level.rename",
      targetType: "member_level",
      targetId: String(level.id),
      details: { slug: input.slug, from: level.name as object, to: input.name },
    });
    return renamed;
  });
}
