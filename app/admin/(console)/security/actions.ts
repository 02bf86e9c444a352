"use server";

import { type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { CurrentPasswordSchema, EnableTotpSchema } from "@/lib/admin-auth/confirm-own-password";
import { adminTotpOwner, beginTotpSetup, disableTotp, enableTotp } from "@/lib/admin-auth/manage-totp";

// Each step asks for the current password (issue 33.6, confirm-own-password.ts).
const PasswordOnly = z.object({ password: CurrentPasswordSchema });

export async function beginTotpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(PasswordOnly, form, async (input, { admin, t }) => {
    const { secret, uri } = await beginTotpSetup(adminTotpOwner(admin), input.password);
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
  return runAdminAction(EnableTotpSchema, form, async (input, { admin, t }) => {
    const codes = await enableTotp(adminTotpOwner(admin), input);
    // No revalidation here: re-rendering would swap this form for the
    // "turn off" form and the one-time recovery codes would vanish unseen.
    // Every session of this admin, this one too, has ended (issue 33.6): the next page asks to sign in with a code.
    return {
      ok: true,
      message: t("security.enabled"),
      revealNote: t("security.enabledSignIn"),
      reveal: codes.map((c, i) => ({ label: `#${i + 1}`, value: c })),
    };
  });
}

export async function disableTotpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(PasswordOnly, form, async (input, { admin, t }) => {
    await disableTotp(adminTotpOwner(admin), input.password);
    revalidatePath("/admin/security");
    return { ok: true, message: t("security.disabledDone") };
  });
}
