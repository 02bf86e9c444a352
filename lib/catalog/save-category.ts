import { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/tx";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";
import { Slug, SortOrder, Text } from "./catalog-file-schema";
import { parseInput } from "../input/parse-input";
import { Int4IdSchema } from "../protocol/ids";

// Creates or edits one category from the console. Field rules are the
// catalogue import's (catalog-file-schema.ts), so both paths accept the same.
export const SaveCategorySchema = z.object({
  id: Int4IdSchema.optional(),
  slug: Slug,
  name: Text(200),
  sortOrder: z.coerce.number().pipe(SortOrder),
  parentId: Int4IdSchema.nullable(),
});
export type SaveCategoryInput = z.input<typeof SaveCategorySchema>;

export async function saveCategory(raw: SaveCategoryInput, { actor }: { actor: Actor }): Promise<{ id: number; created: boolean }> {
  const input = parseInput(SaveCategorySchema, raw);
  try {
    return await db().$transaction(async (tx) => {
      if (input.parentId !== null) {
        // The parent must exist, and the new parent may not be this category or one of its descendants.
        const all = await tx.category.findMany({ where: { deletedAt: null }, select: { id: true, parentId: true } });
        const parentOf = new Map(all.map((c) => [c.id, c.parentId]));
        if (!parentOf.has(input.parentId)) throw appError("bad_request", "parent category not found");
        for (let at: number | null | undefined = input.parentId; at; at = parentOf.get(at)) {
          if (at === input.id) throw appError("bad_request", "a category cannot be placed under itself or its own subcategory");
        }
      }
      const data = { slug: input.slug, name: input.name, sortOrder: input.sortOrder, parentId: input.parentId };
      const row = input.id ? await tx.category.update({ where: { id: input.id }, data }) : await tx.category.create({ data });
      await writeAuditLog(tx, {
        actor,
        action: `category.${input.id ? "update" : "create"}`,
        targetType: "category",
        targetId: String(row.id),
        details: { slug: row.slug, parentId: row.parentId, sortOrder: row.sortOrder },
      });
      return { id: row.id, created: !input.id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw appError("conflict", `slug "${input.slug}" is already used by another category`);
    if ((err as { code?: string }).code === "P2025") throw appError("not_found", "category not found");
    throw err;
  }
}
