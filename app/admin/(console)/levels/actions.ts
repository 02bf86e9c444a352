"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { createLevel } from "@/lib/levels/create-level";
import { renameLevel } from "@/lib/levels/rename-level";

// Thin: the services check slug and names (lib/levels/level-input.ts) and write the audit rows.
const LevelForm = z.object({ slug: z.string().default(""), name_en: z.string().default(""), name_zh: z.string().default("") });
const input = (f: z.output<typeof LevelForm>) => ({ slug: f.slug.trim(), name: { "zh-CN": f.name_zh, en: f.name_en } });

export async function createLevelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(LevelForm, form, async (f, { admin, t }) => {
    await createLevel(input(f), { actor: adminActor(admin) });
    revalidatePath("/admin/levels");
    return { ok: true, message: t("levels.created") };
  });
}

export async function renameLevelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(LevelForm, form, async (f, { admin, t }) => {
    await renameLevel(input(f), { actor: adminActor(admin) });
    revalidatePath("/admin/levels");
    return { ok: true, message: t("levels.renamed") };
  });
}
