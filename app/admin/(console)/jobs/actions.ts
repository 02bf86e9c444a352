"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { resendCallback } from "@/lib/callbacks/resend-callback";
import { resendCatalogEvent } from "@/lib/catalog-events/resend-catalog-event";
import { retryJob } from "@/lib/jobs/list-jobs";
import { Int4IdSchema } from "@/lib/protocol/ids";

/** resendCallback writes its own audit row with the new series of attempts. */
export async function resendCallbackAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ callbackId: Int4IdSchema }), form, async (input, { admin, t }) => {
    await resendCallback({ callbackId: input.callbackId, actor: adminActor(admin) });
    revalidatePath("/admin/jobs");
    return { ok: true, message: t("jobs.resent") };
  });
}

/** Issue 12.2: the same for a catalogue event; resendCatalogEvent audits. */
export async function resendCatalogEventAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ eventId: Int4IdSchema }), form, async (input, { admin, t }) => {
    await resendCatalogEvent({ eventId: input.eventId, actor: adminActor(admin) });
    revalidatePath("/admin/jobs");
    return { ok: true, message: t("jobs.resent") };
  });
}

export async function retryJobAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ jobId: z.string().regex(/^[1-9][0-9]{0,18}$/) }), form, async (input, { admin, t }) => {
    const found = await retryJob(input.jobId, { actor: adminActor(admin) });
    if (!found) return { ok: false, message: t("jobs.notFound") };
    revalidatePath("/admin/jobs");
    return { ok: true, message: t("jobs.retried") };
  });
}
