"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { addAlertChannel, type ChannelInput } from "@/lib/alerts/add-channel";
import { ALERT_KIND_NAMES, hasThreshold, type AlertKind } from "@/lib/alerts/event-kinds";
import { listAlertChannels } from "@/lib/alerts/list-channels";
import { removeAlertChannel } from "@/lib/alerts/remove-channel";
import { setAlertRule } from "@/lib/alerts/set-rule";
import { setSkuThreshold } from "@/lib/alerts/set-sku-threshold";
import { SMTP_SECURITY, smtpUrlOf } from "@/lib/alerts/smtp-url";
import { setUpstreamBalanceAlert } from "@/lib/alerts/set-upstream-balance-alert";
import { testAlertChannel } from "@/lib/alerts/test-channel";
import { Int4IdSchema } from "@/lib/protocol/ids";

// Issue 25: the console's alert actions; every rule lives in the services
// (lib/alerts), which validate again and audit.

const Text = z.string().max(2000).optional();
const ChannelForm = z.object({
  kind: z.string(),
  name: Text,
  botToken: Text,
  chatId: Text,
  apiBase: Text,
  smtpUrl: Text,
  smtpHost: Text,
  smtpPort: Text,
  smtpSecurity: z.enum(SMTP_SECURITY).optional(),
  smtpUser: Text,
  smtpPassword: Text,
  from: Text,
  to: Text,
  url: Text,
});
const blank = (s: string | undefined) => (s?.trim() ? s.trim() : undefined);

export async function addChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(ChannelForm, form, async (f, { admin, t }) => {
    const name = blank(f.name);
    const input = (
      f.kind === "telegram"
        ? { kind: f.kind, name, botToken: f.botToken ?? "", chatId: f.chatId ?? "", apiBase: blank(f.apiBase) }
        : f.kind === "email"
          ? {
              kind: f.kind,
              name,
              // Host, port, TLS, user and password, or a whole SMTP URL.
              smtpUrl: blank(f.smtpHost)
                ? smtpUrlOf({
                    host: f.smtpHost!,
                    port: f.smtpPort,
                    security: f.smtpSecurity ?? "starttls",
                    user: blank(f.smtpUser),
                    password: f.smtpPassword,
                  })
                : (f.smtpUrl ?? ""),
              from: f.from ?? "",
              to: (f.to ?? "")
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : { kind: f.kind, name, url: f.url ?? "" }
    ) as ChannelInput;
    const added = await addAlertChannel(input, { actor: adminActor(admin) });
    revalidatePath("/admin/alerts");
    return {
      ok: true,
      message: added.signing ? t("alerts.addedWebhook", { keyId: added.signing.key_id, secret: added.signing.secret }) : t("alerts.added"),
    };
  });
}

export async function testChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ id: Int4IdSchema }), form, async ({ id }, { admin, t }) => {
    const r = await testAlertChannel({ id }, { actor: adminActor(admin) });
    revalidatePath("/admin/alerts");
    return r.ok ? { ok: true, message: t("alerts.testOk") } : { ok: false, message: t("alerts.testFailed", { error: r.error ?? "" }) };
  });
}

export async function removeChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ id: Int4IdSchema }), form, async ({ id }, { admin, t }) => {
    await removeAlertChannel({ id }, { actor: adminActor(admin) });
    revalidatePath("/admin/alerts");
    return { ok: true, message: t("alerts.removed") };
  });
}

/** The channel's rules form: one toggle per event kind; only the changed ones are written. */
export async function setChannelRulesAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const schema = z.object({
    id: Int4IdSchema,
    ...Object.fromEntries(ALERT_KIND_NAMES.map((k) => [k, z.enum(["true", "false"]).optional()])),
  });
  return runAdminAction(schema, form, async (f, { admin, t }) => {
    const channelId = f.id;
    const current = (await listAlertChannels()).find((c) => c.id === channelId);
    for (const kind of ALERT_KIND_NAMES) {
      const value = (f as Record<string, unknown>)[kind];
      if (value === undefined || !current || current.rules[kind] === (value === "true")) continue;
      await setAlertRule({ event: kind, channelId, enabled: value === "true" }, { actor: adminActor(admin) });
    }
    revalidatePath("/admin/alerts");
    return { ok: true, message: t("common.saved") };
  });
}

export async function setThresholdsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const kinds = ALERT_KIND_NAMES.filter(hasThreshold);
  const schema = z.object(Object.fromEntries(kinds.map((k) => [k, z.string().max(20).optional()])));
  return runAdminAction(schema, form, async (f, { admin, t }) => {
    for (const kind of kinds as AlertKind[]) {
      const value = blank((f as Record<string, string | undefined>)[kind]);
      if (value !== undefined) await setAlertRule({ event: kind, threshold: value }, { actor: adminActor(admin) });
    }
    revalidatePath("/admin/alerts");
    return { ok: true, message: t("alerts.thresholdsSaved") };
  });
}

export async function setSkuThresholdAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ skuCode: z.string().max(200), stock: z.string().max(20).optional() }), form, async (f, { admin, t }) => {
    await setSkuThreshold({ skuCode: f.skuCode, stock: blank(f.stock) ?? null }, { actor: adminActor(admin) });
    return { ok: true, message: t("common.saved") };
  });
}

export async function setUpstreamBalanceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ connectionId: Int4IdSchema, below: z.string().max(30).optional() }), form, async (f, { admin, t }) => {
    await setUpstreamBalanceAlert({ connectionId: f.connectionId, below: blank(f.below) ?? null }, { actor: adminActor(admin) });
    return { ok: true, message: t("common.saved") };
  });
}
