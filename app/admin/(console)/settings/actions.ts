"use server";

import { z } from "zod";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { adminActor } from "@/lib/audit/actor";
import { runAdminAction } from "@/lib/admin-auth/run-action";
import { SettingsPatchSchema, updateSettings } from "@/lib/settings/update-settings";

// The form always sends every field; the service's own schema validates them.
const FormSchema = SettingsPatchSchema.required();

export async function saveSettings(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object(FormSchema.shape), form, async (input, { admin, t }) => {
    await updateSettings(input, { actor: adminActor(admin) });
    return { ok: true, message: t("common.saved") };
  });
}
