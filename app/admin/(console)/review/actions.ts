"use server";

import { adminActor, type ActionState, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { OrderNoSchema } from "@/lib/fulfillment/manual-input";
import { recheckUpstreamPurchase } from "@/lib/upstream/recheck-upstream-purchase";
import { refreshOrderPages } from "../orders/refresh-order-pages";

// Delivering or failing a review order by hand uses the order actions
// (../orders/actions.ts); only the recheck is the review queue's own. The
// service writes its own audit row in the same transaction as its change.

export async function recheckUpstreamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNoSchema }), form, async (input, { admin, t }) => {
    await recheckUpstreamPurchase({ orderNo: input.orderNo, actor: adminActor(admin) });
    refreshOrderPages(input.orderNo);
    return { ok: true, message: t("review.recheckQueued") };
  });
}
