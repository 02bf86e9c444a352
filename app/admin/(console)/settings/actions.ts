"use server";

import { adminActor, type ActionState, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { SettingsPatchSchema, updateSettings } from "@/lib/settings/update-settings";

// The form always sends every field; the service's own schema validates them.
const FormSchema = SettingsPatchSchema.required();

export async function saveSettings(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object(FormSchema.shape), form, async (input, { admin, t }) => {
    await updateSettings(input, { actor: adminActor(admin) });
    return { ok: true, message: t("common.saved") };
  });
}
