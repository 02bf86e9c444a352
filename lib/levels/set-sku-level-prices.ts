import { z } from "zod";
import type { Tx } from "../db/tx";
import { appError } from "../errors";
import { formatAmount, NonNegativeAmountInputSchema } from "../protocol/amount";
import { LevelSlugSchema } from "./level-input";

/**
 * Level prices of one SKU as typed: level slug → amount, or null / blank to
 * clear that level's price (the SKU's own price applies again).
 */
export const SkuLevelPricesSchema = z.record(
  LevelSlugSchema,
  z.union([z.null(), z.literal("").transform(() => null), NonNegativeAmountInputSchema]),
);

export interface LevelPriceChange {
  level: string;
  /** Two-decimal strings (D3), null = no level price. */
  from: string | null;
  to: string | null;
}

/**
 * Sets or clears the price of one SKU for member levels (issue 12.4), in the
 * caller's transaction (a console save, a catalogue import): the price an
 * order of a buyer at that level pays (place_order reads it). Levels not
 * named are left alone, unless `replace` (a catalogue file's `level_prices`
 * is the SKU's whole list), which clears them. A row is written only when its
 * price differs, so saving or importing the same prices again moves no
 * catalogue stamp. An unknown slug is refused before any write. Returns what
 * changed, for the caller's audit row.
 */
export async function setSkuLevelPrices(
  tx: Tx,
  { skuId, prices, replace = false }: { skuId: number; prices: Record<string, bigint | null>; replace?: boolean },
): Promise<LevelPriceChange[]> {
  const slugs = Object.keys(prices);
  const levels = await tx.memberLevel.findMany({ where: replace ? {} : { slug: { in: slugs } }, select: { id: true, slug: true } });
  const known = new Set(levels.map((l) => l.slug));
  const unknown = slugs.filter((s) => !known.has(s));
  if (unknown.length) throw appError("bad_request", `unknown member level ${unknown.map((s) => `"${s}"`).join(", ")}`);

  const current = new Map(
    (await tx.skuLevelPrice.findMany({ where: { skuId }, select: { levelId: true, priceCents: true } })).map((r) => [
      r.levelId,
      r.priceCents,
    ]),
  );
  const changes: LevelPriceChange[] = [];
  for (const level of levels) {
    const wanted = Object.hasOwn(prices, level.slug) ? prices[level.slug] : replace ? null : undefined;
    const had = current.get(level.id) ?? null;
    if (wanted === undefined || wanted === had) continue;
    if (wanted === null) await tx.skuLevelPrice.delete({ where: { skuId_levelId: { skuId, levelId: level.id } } });
    else
      await tx.skuLevelPrice.upsert({
        where: { skuId_levelId: { skuId, levelId: level.id } },
        create: { skuId, levelId: level.id, priceCents: wanted },
        update: { priceCents: wanted },
      });
    changes.push({ level: level.slug, from: had === null ? null : formatAmount(had), to: wanted === null ? null : formatAmount(wanted) });
  }
  return changes;
}
