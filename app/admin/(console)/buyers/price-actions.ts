"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { PriceTiersTextSchema, SkuCodeSchema } from "@/lib/prices/price-input";
import { setContractPrice } from "@/lib/prices/set-contract-price";
import { setPriceTiers } from "@/lib/prices/set-price-tiers";
import { NonNegativeAmountInputSchema, PositiveAmountInputSchema } from "@/lib/protocol/amount";
import { EmailSchema } from "@/lib/users/email";
import { setCreditLimit } from "@/lib/users/set-credit-limit";

// Issue 38 (decision 0094): a buyer's credit line and contract prices, a SKU's quantity tiers.
// Thin: the services check, write and audit in one transaction each.

const CreditSchema = z.object({ userId: z.uuid(), limit: NonNegativeAmountInputSchema });

export async function setCreditLimitAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(CreditSchema, form, async (input, { admin, t }) => {
    const r = await setCreditLimit(input, { actor: adminActor(admin) });
    revalidatePath(`/admin/buyers/${r.userId}`);
    return { ok: true, message: t("buyers.creditSaved", { limit: r.creditLimit }) };
  });
}

// An empty price removes the contract price.
const ContractSchema = z.object({
  userId: z.uuid(),
  email: EmailSchema,
  sku_code: SkuCodeSchema,
  price: z
    .string()
    .trim()
    .transform((s) => s || null)
    .pipe(PositiveAmountInputSchema.nullable()),
});

export async function setContractPriceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(ContractSchema, form, async (input, { admin, t }) => {
    await setContractPrice({ email: input.email, skuCode: input.sku_code, price: input.price }, { actor: adminActor(admin) });
    revalidatePath(`/admin/buyers/${input.userId}`);
    return { ok: true, message: t(input.price === null ? "buyers.contractCleared" : "buyers.contractSaved") };
  });
}

const TiersSchema = z.object({ skuId: z.coerce.number().int().positive(), sku_code: SkuCodeSchema, tiers: PriceTiersTextSchema });

export async function setPriceTiersAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(TiersSchema, form, async (input, { admin, t }) => {
    await setPriceTiers({ skuCode: input.sku_code, tiers: input.tiers }, { actor: adminActor(admin) });
    revalidatePath(`/admin/catalog/skus/${input.skuId}`);
    return { ok: true, message: t("cardKeys.tiersSaved") };
  });
}
