import { z } from "zod";
import { db } from "../db/client";
import { appError } from "../errors";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

export const TelegramBindingSchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(3).max(254),
  /** The Telegram user id (a number; the bot's @userinfobot tells it). */
  telegramUserId: z
    .string()
    .trim()
    .regex(/^[0-9]{1,20}$/, "must be a Telegram user id (digits)"),
});

/** Issue 25.4: lets this Telegram user press review alert buttons as this administrator (audited). */
export async function bindTelegramUser(input: z.input<typeof TelegramBindingSchema>, { actor }: { actor: Actor }) {
  const parsed = TelegramBindingSchema.safeParse(input);
  if (!parsed.success) throw appError("bad_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const { email, telegramUserId } = parsed.data;
  return db().$transaction(async (tx) => {
    const admin = await tx.adminUser.findUnique({ where: { email }, select: { id: true } });
    if (!admin) throw appError("not_found", `no administrator ${email}`);
    await tx.alertTelegramBinding.upsert({
      where: { telegramUserId },
      create: { telegramUserId, adminUserId: admin.id },
      update: { adminUserId: admin.id },
    });
    await writeAuditLog(tx, {
      actor,
      action: "alert.telegram.bind",
      targetType: "admin_user",
      targetId: String(admin.id),
      details: { telegramUserId },
    });
    return { admin_id: admin.id, email, telegram_user_id: telegramUserId };
  });
}
