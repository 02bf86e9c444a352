"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { editSkuSources, SkuSourcesChangeSchema } from "@/lib/upstream/edit-sku-sources";

/** Issue 26.1: one change to a SKU's sources from the console's sources panel (the service checks and audits it). */
export async function skuSourcesAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const schema = z
    .object({ skuCode: z.string().trim().min(1).max(200), skuId: z.string().regex(/^\d{1,10}$/) })
    .and(SkuSourcesChangeSchema);
  return runAdminAction(schema, form, async ({ skuCode, skuId, ...change }, { admin, t }) => {
    await editSkuSources({ skuCode, change: change, actor: adminActor(admin) });
    revalidatePath(`/admin/catalog/skus/${skuId}/sources`);
    return { ok: true, message: t("sources.saved") };
  });
}
