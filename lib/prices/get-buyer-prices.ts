import { db } from "../db/client";

/** Issue 38: a buyer's credit line and contract prices, for the console's buyer page and the portal. */
export async function getBuyerPrices(userId: string) {
  const [user, contracts] = await Promise.all([
    db().user.findUnique({ where: { id: userId }, select: { balanceCents: true, creditLimitCents: true } }),
    db().contractPrice.findMany({
      where: { userId },
      select: { priceCents: true, updatedAt: true, sku: { select: { id: true, skuCode: true } } },
      orderBy: { sku: { skuCode: "asc" } },
      take: 1000,
    }),
  ]);
  const creditLimitCents = user?.creditLimitCents ?? 0n;
  const balanceCents = user?.balanceCents ?? 0n;
  return {
    creditLimitCents,
    /** What the buyer owes on its credit line now (0 when its balance is not below zero). */
    creditUsedCents: balanceCents < 0n ? -balanceCents : 0n,
    contracts: contracts.map((c) => ({ skuId: c.sku.id, skuCode: c.sku.skuCode, priceCents: c.priceCents, updatedAt: c.updatedAt })),
  };
}
