"use server";

import { z } from "zod";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { auditAdmin } from "@/lib/admin-auth/audit-admin";
import { runAdminAction } from "@/lib/admin-auth/run-action";
import { SettingsPatchSchema, settingsView, updateSettings } from "@/lib/settings/update-settings";

// The form always sends every field; the service's own schema validates them.
const FormSchema = SettingsPatchSchema.required();

export async function saveSettings(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object(FormSchema.shape), form, async (input, { admin, t }) => {
    const saved = settingsView(await updateSettings(input));
    await auditAdmin({ adminUserId: admin.id, actor: admin.email, action: "settings.update", targetType: "settings", targetId: "1", details: saved, ip: admin.ip });
    return { ok: true, message: t("common.saved") };
  });
}
