"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { OnceTokenSchema } from "@/lib/audit/consume-once-token";
import { refundOrderPart } from "@/lib/after-sales/refund-order-part";
import { resolveClaim } from "@/lib/after-sales/resolve-claim";
import { revealClaimLine } from "@/lib/after-sales/reveal-claim-line";
import { refreshOrderPages } from "../orders/refresh-order-pages";

// The claims queue (issue 26.3). The services check the input again, write
// their own audit row in the change's transaction and use up the form's
// one-time token there (decision 0034).

const ClaimIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number);
const optional = z
  .string()
  .trim()
  .max(10_000)
  .transform((s) => s || undefined)
  .optional();

export async function resolveClaimAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const schema = z.object({
    claimId: ClaimIdSchema,
    orderNo: z.string().max(64),
    action: z.enum(["replace", "refund", "reject"]),
    note: optional,
    replacement: optional,
    once_token: OnceTokenSchema,
  });
  return runAdminAction(schema, form, async (input, { admin, t }) => {
    const view = await resolveClaim({
      claimId: input.claimId,
      action: input.action,
      note: input.note,
      replacement: input.replacement,
      actor: adminActor(admin),
      onceToken: input.once_token,
    });
    refreshOrderPages(input.orderNo);
    revalidatePath("/admin/claims");
    // Decision 0059: a replace may leave the claim open while its key is bought upstream.
    return { ok: true, message: t(view.state === "open" ? "claims.done.buying" : `claims.done.${input.action}`) };
  });
}

/** The claimed line, shown once in the response; the audit row is written before it is returned. */
export async function revealClaimLineAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ claimId: ClaimIdSchema }), form, async (input, { admin, t }) => {
    const value = await revealClaimLine({ claimId: input.claimId, actor: adminActor(admin) });
    return { ok: true, message: t("claims.revealed"), reveal: [{ label: t("claims.line"), value }] };
  });
}

export async function refundOrderPartAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const schema = z.object({
    orderNo: z.string().trim().min(1).max(64),
    lines: z
      .string()
      .trim()
      .regex(/^([0-9]{1,7}(\s*,\s*[0-9]{1,7})*)?$/, "must be line numbers like 0, 2")
      .optional(),
    amount: z.string().trim().max(20).optional(),
    reason: z.string().trim().min(1).max(200),
    once_token: OnceTokenSchema,
  });
  return runAdminAction(schema, form, async (input, { admin, t }) => {
    const lines = input.lines ? input.lines.split(",").map((s) => Number(s.trim())) : undefined;
    const r = await refundOrderPart({
      orderNo: input.orderNo,
      lines,
      amount: input.amount || undefined,
      reason: input.reason,
      actor: adminActor(admin),
      onceToken: input.once_token,
    });
    refreshOrderPages(r.orderNo);
    revalidatePath("/admin/claims");
    return { ok: true, message: t("claims.refunded", { amount: r.refunded, total: r.refundedTotal }) };
  });
}
