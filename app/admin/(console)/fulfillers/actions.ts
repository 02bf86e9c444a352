"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { createFulfillerToken } from "@/lib/fulfiller/create-fulfiller-token";
import { TokenIdSchema, TokenNameSchema } from "@/lib/fulfiller/fulfiller-input";
import { revokeFulfillerToken } from "@/lib/fulfiller/revoke-fulfiller-token";

// Issue 39: the console's fulfiller token forms, over the CLI's services. The
// token and webhook secret go back to this one response only (ActionForm shows them once).

const CreateSchema = z.object({
  name: TokenNameSchema,
  productIds: z
    .string()
    .trim()
    .max(10_000)
    .regex(/^(\d+(\s*,\s*\d+)*)?$/, "must be product ids separated by commas")
    .transform((s) => (s ? s.split(",").map((n) => Number(n.trim())) : [])),
  webhookUrl: z
    .string()
    .trim()
    .transform((s) => s || undefined),
});

export async function createFulfillerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(CreateSchema, form, async (input, { admin, t }) => {
    const made = await createFulfillerToken(input, { actor: adminActor(admin) });
    revalidatePath("/admin/fulfillers");
    return {
      ok: true,
      message: t("common.saved"),
      revealNote: t("fulfillers.once"),
      reveal: [
        { label: t("fulfillers.token"), value: made.token },
        ...(made.webhook_secret ? [{ label: t("fulfillers.webhookSecret"), value: made.webhook_secret }] : []),
      ],
    };
  });
}

export async function revokeFulfillerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ id: TokenIdSchema }), form, async (input, { admin, t }) => {
    await revokeFulfillerToken({ id: input.id, actor: adminActor(admin) });
    revalidatePath("/admin/fulfillers");
    return { ok: true, message: t("fulfillers.revokedDone") };
  });
}
