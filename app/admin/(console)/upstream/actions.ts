"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { addUpstreamConnection } from "@/lib/upstream/add-upstream-connection";
import { MarkupPercentSchema, UpstreamConnectionInputSchema, UpstreamMaxCostSchema } from "@/lib/upstream/connection-input";
import { acceptHeldProduct } from "@/lib/upstream/accept-held-product";
import { importUpstreamCatalog } from "@/lib/upstream/import-upstream-catalog";
import { pingUpstreamConnection } from "@/lib/upstream/list-upstream-connections";
import { setUpstreamEnabled } from "@/lib/upstream/set-upstream-enabled";
import { setUpstreamMaxCost } from "@/lib/upstream/set-upstream-max-cost";
import { Int4IdSchema } from "@/lib/protocol/ids";

const ConnectionId = Int4IdSchema;

/** Pings first (the service refuses a supplier that does not answer); the secret is stored encrypted and never echoed back. */
export async function addUpstreamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(UpstreamConnectionInputSchema, form, async (input, { admin, t }) => {
    await addUpstreamConnection(input, { actor: adminActor(admin) });
    revalidatePath("/admin/upstream");
    return { ok: true, message: t("upstream.added") };
  });
}

export async function pingUpstreamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ id: ConnectionId }), form, async (input, { admin, t }) => {
    const r = await pingUpstreamConnection(input.id, { actor: adminActor(admin) });
    revalidatePath("/admin/upstream");
    return r.ok
      ? { ok: true, message: t("upstream.pingOk", { balance: r.balance ?? "" }) }
      : { ok: false, message: t("upstream.pingFailed", { error: r.error ?? "" }) };
  });
}

export async function importUpstreamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(
    z.object({ id: ConnectionId, markupPercent: MarkupPercentSchema.default("0") }),
    form,
    async (input, { admin, t }) => {
      const c = await importUpstreamCatalog({ connectionId: input.id, markupPercent: input.markupPercent, actor: adminActor(admin) });
      revalidatePath("/admin/upstream");
      const counts = t("upstream.imported", {
        cc: c.categoriesCreated,
        cu: c.categoriesUpdated,
        cd: c.categoriesDelisted,
        pc: c.productsCreated,
        pu: c.productsUpdated,
        pd: c.productsDelisted,
        sc: c.skusCreated,
        su: c.skusUpdated,
        sd: c.skusDelisted,
      });
      // Issue 8.3: each product left out, with its reason.
      const skipped = c.skipped.map((s) => t("upstream.skippedProduct", { id: s.upstreamProductId ?? "?", reason: s.reason }));
      // Issue 22.1: each product held off sale for its price, until accepted below.
      const held = c.held.map((h) => t("upstream.skippedProduct", { id: h.upstreamProductId, reason: h.reason }));
      const message = [
        counts,
        ...(skipped.length ? [`${t("upstream.skipped", { n: skipped.length })} ${skipped.join("; ")}`] : []),
        ...(held.length ? [`${t("upstream.heldCount", { n: held.length })} ${held.join("; ")}`] : []),
      ].join(" ");
      return { ok: true, message };
    },
  );
}

export async function setUpstreamEnabledAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ id: ConnectionId, enabled: z.enum(["true", "false"]) }), form, async (input, { admin, t }) => {
    await setUpstreamEnabled({ connectionId: input.id, enabled: input.enabled === "true", actor: adminActor(admin) });
    revalidatePath("/admin/upstream");
    return { ok: true, message: t("upstream.toggled") };
  });
}

/** Issue 22.1: the administrator accepts a held product's price; it sells again (audited in the service's transaction). */
export async function acceptHeldProductAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ productId: Int4IdSchema }), form, async (input, { admin, t }) => {
    await acceptHeldProduct({ productId: input.productId, actor: adminActor(admin) });
    revalidatePath("/admin/upstream");
    return { ok: true, message: t("upstream.accepted") };
  });
}

/** Issue 22.1: the most the upstream may charge per unit of a SKU; blank for the default (the price the buyer paid). */
export async function setUpstreamMaxCostAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(UpstreamMaxCostSchema, form, async (input, { admin, t }) => {
    await setUpstreamMaxCost({ skuId: input.skuId, maxCostCents: input.maxCost, actor: adminActor(admin) });
    revalidatePath("/admin/upstream");
    return { ok: true, message: t("upstream.toggled") };
  });
}
