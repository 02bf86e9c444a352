"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { runAdminAction } from "@/lib/admin-auth/run-action";
import { revealFormField } from "@/lib/admin-views/reveal-form-field";
import { deliverOrder } from "@/lib/fulfilment/deliver-order";
import { failOrder } from "@/lib/fulfilment/fail-order";

const OrderNo = z.string().trim().min(1).max(64);

// deliverOrder/failOrder write their own audit row (who, what; never the
// payload) in the same transaction as the state change.

export async function deliverOrderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNo, payload: z.string().min(1, "is required").max(1_000_000) }), form, async (input, { admin, t }) => {
    await deliverOrder({ orderNo: input.orderNo, payloadText: input.payload, adminUserId: admin.id, actor: admin.email, ip: admin.ip });
    revalidatePath("/admin/manual");
    revalidatePath(`/admin/orders/${input.orderNo}`);
    return { ok: true, message: t("manual.delivered") };
  });
}

export async function failOrderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNo, reason: z.string().trim().min(1, "is required").max(200) }), form, async (input, { admin, t }) => {
    await failOrder({ orderNo: input.orderNo, reason: input.reason, adminUserId: admin.id, actor: admin.email, ip: admin.ip });
    revalidatePath("/admin/manual");
    revalidatePath(`/admin/orders/${input.orderNo}`);
    return { ok: true, message: t("manual.failed") };
  });
}

/** One form value, shown once in the response; the audit row is written before it is returned. */
export async function revealFormFieldAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNo, field: z.string().min(1).max(100) }), form, async (input, { admin, t }) => {
    const value = await revealFormField({ orderNo: input.orderNo, field: input.field, admin });
    return { ok: true, message: t("orders.revealed"), reveal: [{ label: input.field, value }] };
  });
}
