"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { unstable_rethrow } from "next/navigation";
import { requireAdmin } from "@/lib/admin-auth/require-admin";
import { confirmCardKeys } from "@/lib/catalog/confirm-card-keys";
import { previewCardKeys, type CardKeyPreview } from "@/lib/catalog/preview-card-keys";
import { revealCardKey } from "@/lib/catalog/reveal-card-key";
import { undoCardKeyBatch } from "@/lib/catalog/undo-card-key-batch";
import { AppError } from "@/lib/errors";
import { formIssues } from "@/lib/admin-auth/form-issues";
import { getI18n } from "@/lib/i18n/server";
import { log } from "@/lib/log";
import { Int4IdSchema } from "@/lib/protocol/ids";

// Card keys never appear in a response, a log line or an audit row here,
// except revealCardKeyAction's one audited key.

export type CardKeyImportState = { ok: boolean; message: string; preview?: CardKeyPreview; previewedFor?: string; at: number } | null;

const ImportForm = z.object({
  skuId: Int4IdSchema,
  text: z.string().max(900_000),
  kind: z.enum(["txt", "csv"]).default("txt"),
  source: z.enum(["admin-paste", "admin-upload"]).default("admin-paste"),
  intent: z.enum(["preview", "confirm"]),
  expectFresh: z.coerce.number().int().min(0).default(0),
  /** A digest of the previewed text, echoed back so the client knows the preview still applies. */
  digest: z.string().max(100).default(""),
});

/** Preview (counts only) or confirm (adds the batch). Its own state type: the counts are structured. */
export async function cardKeyImportAction(_prev: CardKeyImportState, form: FormData): Promise<CardKeyImportState> {
  const admin = await requireAdmin();
  const { t } = await getI18n();
  const raw = Object.fromEntries([...form.entries()].filter(([k, v]) => typeof v === "string" && !k.startsWith("$ACTION")));
  const parsed = ImportForm.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      message: `${t("common.invalid")} ${formIssues(parsed.error, t)
        .map((i) => i.message)
        .join(" ")}`,
      at: Date.now(),
    };
  const input = parsed.data;
  try {
    if (input.intent === "preview") {
      const preview = await previewCardKeys(input.skuId, input.text, input.kind);
      return { ok: true, message: "", preview, previewedFor: input.digest, at: Date.now() };
    }
    const { batchId, preview } = await confirmCardKeys(
      { skuId: input.skuId, text: input.text, kind: input.kind, source: input.source, expectFresh: input.expectFresh },
      { actor: adminActor(admin) },
    );
    revalidatePath(`/admin/catalog/skus/${input.skuId}`);
    return { ok: true, message: t("cardKeys.added", { count: preview.fresh, batch: batchId }), at: Date.now() };
  } catch (err) {
    unstable_rethrow(err);
    if (err instanceof AppError) return { ok: false, message: t("common.error", { message: err.publicMessage }), at: Date.now() };
    log.error({ err: err instanceof Error ? err.message : String(err), adminId: admin.id }, "card key import failed");
    return { ok: false, message: t("common.error", { message: "internal error" }), at: Date.now() };
  }
}

export async function undoBatchAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ batchId: Int4IdSchema, skuId: Int4IdSchema }), form, async (input, { admin, t }) => {
    const { deleted } = await undoCardKeyBatch(input.batchId, { actor: adminActor(admin) });
    revalidatePath(`/admin/catalog/skus/${input.skuId}`);
    return { ok: true, message: t("cardKeys.undoneDone", { count: deleted }) };
  });
}

/** One key, shown once in this response; the audit row is written before it is returned. */
export async function revealCardKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ keyId: z.string().regex(/^\d{1,18}$/) }), form, async (input, { admin, t }) => {
    const key = await revealCardKey(BigInt(input.keyId), { actor: adminActor(admin) });
    return { ok: true, message: t("cardKeys.revealed"), reveal: [{ label: t("cardKeys.key"), value: key }] };
  });
}
