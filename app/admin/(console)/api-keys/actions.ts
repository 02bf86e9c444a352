"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { deleteCatalogWebhook } from "@/lib/catalog-events/delete-catalog-webhook";
import { createApiKey } from "@/lib/credentials/create-api-key";
import { db } from "@/lib/db/client";
import { ApiKeyTextSchema, disableApiKey } from "@/lib/credentials/disable-api-key";
import { rotateApiKey } from "@/lib/credentials/rotate-api-key";
import { setAcgSwitch } from "@/lib/credentials/set-acg-switch";
import { EmailSchema } from "@/lib/users/email";
import { getUserByEmail } from "@/lib/users/get-user-by-email";
import type { Translate } from "@/lib/i18n/messages";

const CreateSchema = z.object({
  email: EmailSchema,
  name: z.string().trim().max(100).default(""),
});

/** A new key and its secret, for this one response only (ActionForm shows them once); never logged or audited. */
function keyShownOnce(t: Translate, note: string, key: { apiKey: string; apiSecret: string }): NonNullable<ActionState> {
  return {
    ok: true,
    message: t("common.saved"),
    revealNote: note,
    reveal: [
      { label: t("apiKeys.key"), value: key.apiKey },
      { label: t("apiKeys.secret"), value: key.apiSecret },
    ],
  };
}

/** The secret is returned to this one response only (ActionForm shows it once); it is never logged or audited. */
export async function createApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(CreateSchema, form, async (input, { admin, t }) => {
    const user = await getUserByEmail(input.email);
    const key = await createApiKey({ userId: user.id, name: input.name, actor: adminActor(admin) });
    revalidatePath("/admin/api-keys");
    revalidatePath(`/admin/buyers/${user.id}`);
    return keyShownOnce(t, t("apiKeys.secretOnce"), key);
  });
}

const DisableSchema = z.object({ apiKey: ApiKeyTextSchema });

export async function disableApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(DisableSchema, form, async (input, { admin, t }) => {
    await disableApiKey({ apiKey: input.apiKey, actor: adminActor(admin) });
    revalidatePath("/admin/api-keys");
    revalidatePath("/admin/buyers", "layout");
    return { ok: true, message: t("apiKeys.disabledDone") };
  });
}

/** New key and secret for the same buyer, the old key disabled (one transaction, audited); the secret is shown once by ActionForm. */
export async function rotateApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(DisableSchema, form, async (input, { admin, t }) => {
    const key = await rotateApiKey({ apiKey: input.apiKey, actor: adminActor(admin) });
    revalidatePath("/admin/api-keys");
    revalidatePath(`/admin/buyers/${key.userId}`);
    return keyShownOnce(t, t("apiKeys.rotated"), key);
  });
}

/** Issue 12.2: removes a key's catalogue webhook (its pending events are given up); audited by the service. */
export async function removeCatalogWebhookAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(DisableSchema, form, async (input, { admin, t }) => {
    const key = await db().apiCredential.findUnique({ where: { apiKey: input.apiKey }, select: { id: true } });
    if (key) await deleteCatalogWebhook({ credentialId: key.id, actor: adminActor(admin) });
    revalidatePath("/admin/api-keys");
    return { ok: true, message: t("apiKeys.webhookRemoved") };
  });
}

const AcgSchema = z.object({ apiKey: ApiKeyTextSchema, acg: z.enum(["true", "false"]) });

/** Issue 37.2: the ACG-Faka switch of one key (audited by the service); shows what the shop types into its screen. */
export async function setAcgSwitchAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(AcgSchema, form, async (input, { admin, t }) => {
    const r = await setAcgSwitch({ apiKey: input.apiKey, on: input.acg === "true", actor: adminActor(admin) });
    revalidatePath("/admin/api-keys");
    if (!r.acgEnabled) return { ok: true, message: t("common.saved") };
    return {
      ok: true,
      message: t("common.saved"),
      revealNote: t("apiKeys.acgDone"),
      reveal: [
        { label: t("apiKeys.acgDomain"), value: r.url },
        { label: t("apiKeys.acgAppId"), value: r.appId },
      ],
    };
  });
}
