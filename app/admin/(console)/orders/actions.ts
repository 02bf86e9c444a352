"use server";

import { adminActor, type ActionState, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { OnceTokenSchema } from "@/lib/audit/consume-once-token";
import { revealFormField } from "@/lib/admin-views/reveal-form-field";
import { deliverOrder, DeliveryPayloadSchema } from "@/lib/fulfillment/deliver-order";
import { failOrder, FailReasonSchema } from "@/lib/fulfillment/fail-order";
import { OrderNoSchema } from "@/lib/fulfillment/manual-input";
import { refreshOrderPages } from "./refresh-order-pages";

// The one pair of deliver/fail actions, used by the order page, the manual
// queue and the review queue. deliverOrder/failOrder write their own audit row
// (who, what; never the payload) in the same transaction as the state change,
// and use up the form's one-time token there (issue 22.10: money moves once).

export async function deliverOrderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(
    z.object({ orderNo: OrderNoSchema, payload: DeliveryPayloadSchema, once_token: OnceTokenSchema }),
    form,
    async (input, { admin, t }) => {
      await deliverOrder({ orderNo: input.orderNo, payloadText: input.payload, actor: adminActor(admin), onceToken: input.once_token });
      refreshOrderPages(input.orderNo);
      return { ok: true, message: t("manual.delivered") };
    },
  );
}

export async function failOrderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(
    z.object({ orderNo: OrderNoSchema, reason: FailReasonSchema, once_token: OnceTokenSchema }),
    form,
    async (input, { admin, t }) => {
      await failOrder({ orderNo: input.orderNo, reason: input.reason, actor: adminActor(admin), onceToken: input.once_token });
      refreshOrderPages(input.orderNo);
      return { ok: true, message: t("manual.failed") };
    },
  );
}

/** One form value, shown once in the response; the audit row is written before it is returned. */
export async function revealFormFieldAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ orderNo: OrderNoSchema, field: z.string().min(1).max(100) }), form, async (input, { admin, t }) => {
    const value = await revealFormField({ orderNo: input.orderNo, field: input.field, actor: adminActor(admin) });
    return { ok: true, message: t("orders.revealed"), reveal: [{ label: input.field, value }] };
  });
}
