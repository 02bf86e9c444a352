"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { adminTotpOwner, beginTotpSetup, disableTotp, enableTotp } from "@/lib/admin-auth/manage-totp";
import { runAdminAction } from "@/lib/admin-auth/run-action";

export async function beginTotpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({}), form, async (_input, { admin, t }) => {
    const { secret, uri } = await beginTotpSetup(adminTotpOwner(admin));
    return {
      ok: true,
      message: t("security.start"),
      reveal: [
        { label: t("security.secret"), value: secret },
        { label: t("security.uri"), value: uri },
      ],
    };
  });
}

export async function enableTotpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(
    z.object({
      code: z
        .string()
        .trim()
        .regex(/^\d{6}$/, "must be 6 digits"),
    }),
    form,
    async (input, { admin, t }) => {
      const codes = await enableTotp(adminTotpOwner(admin), input.code);
      // No revalidation here: re-rendering would swap this form for the
      // "turn off" form and the one-time recovery codes would vanish unseen.
      return {
        ok: true,
        message: t("security.enabled"),
        revealNote: t("security.enabledDone"),
        reveal: codes.map((c, i) => ({ label: `#${i + 1}`, value: c })),
      };
    },
  );
}

export async function disableTotpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ password: z.string().min(1).max(1024) }), form, async (input, { admin, t }) => {
    await disableTotp(adminTotpOwner(admin), input.password);
    revalidatePath("/admin/security");
    return { ok: true, message: t("security.disabledDone") };
  });
}
