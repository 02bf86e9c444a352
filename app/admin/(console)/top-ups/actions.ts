"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { OnceTokenSchema } from "@/lib/audit/consume-once-token";
import { formatAmount } from "@/lib/protocol/amount";
import { approveTopUp, TopUpIdSchema } from "@/lib/top-ups/approve-top-up";
import { rejectTopUp, RejectReasonSchema } from "@/lib/top-ups/reject-top-up";

// Issue 24.2, 22.10: money forms carry a one-time token (ActionForm's `once`).

export async function approveTopUpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ id: TopUpIdSchema, once_token: OnceTokenSchema }), form, async (input, { admin, t }) => {
    const r = await approveTopUp({ id: input.id, actor: adminActor(admin), onceToken: input.once_token });
    revalidatePath("/admin/top-ups");
    return { ok: true, message: t("topUps.approved", { balance: formatAmount(r.balanceCents) }) };
  });
}

export async function rejectTopUpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(
    z.object({ id: TopUpIdSchema, reason: RejectReasonSchema, once_token: OnceTokenSchema }),
    form,
    async (input, { admin, t }) => {
      await rejectTopUp({ id: input.id, reason: input.reason, actor: adminActor(admin), onceToken: input.once_token });
      revalidatePath("/admin/top-ups");
      return { ok: true, message: t("topUps.rejected") };
    },
  );
}
