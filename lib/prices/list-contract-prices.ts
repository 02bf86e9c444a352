import { z } from "zod";
import { db } from "../db/client";
import { appError } from "../errors";
import { parseInput } from "../input/parse-input";
import { EmailSchema } from "../users/email";
import { SkuCodeSchema } from "./price-input";

/** One buyer's contract prices, or one SKU's, or all. */
export const ListContractPricesSchema = z.object({ email: EmailSchema.optional(), skuCode: SkuCodeSchema.optional() });

const LIMIT = 1000;

/** Contract prices (issue 38), by buyer then SKU code; at most 1000 rows. */
export async function listContractPrices(raw: z.input<typeof ListContractPricesSchema>) {
  const input = parseInput(ListContractPricesSchema, raw);
  if (input.email && !(await db().user.count({ where: { email: input.email } }))) {
    throw appError("user_not_found", `no user with email ${input.email}`);
  }
  const rows = await db().contractPrice.findMany({
    where: {
      ...(input.email ? { user: { email: input.email } } : {}),
      ...(input.skuCode ? { sku: { skuCode: input.skuCode } } : {}),
    },
    select: { priceCents: true, updatedAt: true, user: { select: { email: true } }, sku: { select: { id: true, skuCode: true } } },
    orderBy: [{ user: { email: "asc" } }, { sku: { skuCode: "asc" } }],
    take: LIMIT,
  });
  return rows.map((r) => ({
    email: r.user.email,
    skuCode: r.sku.skuCode,
    skuId: r.sku.id,
    priceCents: r.priceCents,
    updatedAt: r.updatedAt,
  }));
}
