import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { ActionState } from "./action-state";
import { AlreadyDoneError } from "../audit/consume-once-token";
import { AppError } from "../errors";
import { log } from "../log";
import { getI18n } from "../i18n/server";
import type { Translate } from "../i18n/messages";
import type { AdminSession } from "./admin-session";
import { formIssues } from "./form-issues";
import { requireAdmin, type SessionOptions } from "./require-admin";

/**
 * The frame of every admin server action: session check first (a signed-out
 * caller is redirected and nothing runs), then the form validated with zod
 * (bad input writes nothing), then the work. AppErrors become a message for
 * the form; a money form sent again with its used one-time token changed
 * nothing and says "already done"; anything else is logged (without the form)
 * and shown generically.
 */
export async function runAdminAction<S extends z.ZodType>(
  schema: S,
  form: FormData,
  work: (input: z.output<S>, ctx: { admin: AdminSession; t: Translate }) => Promise<NonNullable<ActionState>>,
  session: SessionOptions = {},
): Promise<ActionState> {
  const admin = await requireAdmin(session);
  const { t } = await getI18n();
  const raw: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !k.startsWith("$ACTION")) raw[k] = v;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    // Issue 35.2: sentences in the page's language, the fields named so the form highlights them.
    return { ok: false, message: t("common.invalid"), issues: formIssues(parsed.error, t), at: Date.now() };
  }
  try {
    return { ...(await work(parsed.data, { admin, t })), at: Date.now() };
  } catch (err) {
    unstable_rethrow(err);
    if (err instanceof AlreadyDoneError) return { ok: true, message: t("common.alreadyDone"), at: Date.now() };
    if (err instanceof AppError) return { ok: false, message: t("common.error", { message: err.publicMessage }), at: Date.now() };
    log.error({ err: err instanceof Error ? err.message : String(err), adminId: admin.id }, "admin action failed");
    return { ok: false, message: t("common.error", { message: "internal error" }), at: Date.now() };
  }
}
