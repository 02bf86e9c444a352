"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { runAdminAction } from "@/lib/admin-auth/run-action";
import { deliverOrder } from "@/lib/fulfilment/deliver-order";
import { failOrder } from "@/lib/fulfilment/fail-order";
import { recheckUpstreamPurchase } from "@/lib/upstream/recheck-upstream-purchase";

const OrderNo = z.string().trim().min(1).max(64);

// Each service writes its own audit row (who, what; never the payload) in the
// same transaction as its change.

function refresh(orderNo: string) {
  revalidatePath("/admin/review");
  revalidatePath("/admin/manual");
  revalidatePath(`/admin/orders/${orderNo}`);
}

export async function recheckUpstreamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNo }), form, async (input, { admin, t }) => {
    await recheckUpstreamPurchase({ orderNo: input.orderNo, adminUserId: admin.id, actor: admin.email, ip: admin.ip });
    refresh(input.orderNo);
    return { ok: true, message: t("review.recheckQueued") };
  });
}

export async function deliverReviewAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNo, payload: z.string().min(1, "is required").max(1_000_000) }), form, async (input, { admin, t }) => {
    await deliverOrder({ orderNo: input.orderNo, payloadText: input.payload, adminUserId: admin.id, actor: admin.email, ip: admin.ip });
    refresh(input.orderNo);
    return { ok: true, message: t("manual.delivered") };
  });
}

export async function failReviewAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNo, reason: z.string().trim().min(1, "is required").max(200) }), form, async (input, { admin, t }) => {
    await failOrder({ orderNo: input.orderNo, reason: input.reason, adminUserId: admin.id, actor: admin.email, ip: admin.ip });
    refresh(input.orderNo);
    return { ok: true, message: t("manual.failed") };
  });
}
