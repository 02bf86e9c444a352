"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { auditAdmin } from "@/lib/admin-auth/audit-admin";
import { runAdminAction } from "@/lib/admin-auth/run-action";
import { AdjustReasonSchema, adjustPoints, PointsDeltaSchema } from "@/lib/points/adjust-points";
import { formatAmount, NonNegativeAmountInputSchema } from "@/lib/protocol/amount";
import { EmailSchema } from "@/lib/users/email";
import { createUser } from "@/lib/users/create-user";
import { adminActor } from "@/lib/levels/level-input";
import { setMemberLevel } from "@/lib/users/set-member-level";

const CreateBuyerSchema = z.object({
  email: EmailSchema,
  // A points field left blank opens the account at zero.
  points: z.string().trim().transform((s) => s || "0").pipe(NonNegativeAmountInputSchema).default(0n),
});

export async function createBuyerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(CreateBuyerSchema, form, async (input, { admin, t }) => {
    const user = await createUser({ email: input.email, initialPointsCents: input.points });
    await auditAdmin({ adminUserId: admin.id, actor: admin.email, action: "user.create", targetType: "user", targetId: user.id, details: { email: user.email, points: formatAmount(user.balanceCents) }, ip: admin.ip });
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.created") };
  });
}

const AdjustSchema = z.object({ email: EmailSchema, amount: PointsDeltaSchema, reason: AdjustReasonSchema });

export async function adjustPointsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(AdjustSchema, form, async (input, { admin, t }) => {
    const deltaCents = input.amount;
    const balance = await adjustPoints({ email: input.email, deltaCents, reason: `admin: ${input.reason}`, adminUserId: admin.id });
    await auditAdmin({ adminUserId: admin.id, actor: admin.email, action: "points.adjust", targetType: "user", targetId: input.email, details: { amount: formatAmount(deltaCents), reason: input.reason, balance: formatAmount(balance) }, ip: admin.ip });
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.adjusted", { balance: formatAmount(balance) }) };
  });
}

const LevelSchema = z.object({ userId: z.string(), level: z.string() });

export async function setMemberLevelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(LevelSchema, form, async (input, { admin, t }) => {
    // The service checks both fields (SetMemberLevelSchema).
    await setMemberLevel({ userId: input.userId, level: input.level }, adminActor(admin));
    revalidatePath(`/admin/buyers/${input.userId}`);
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.levelChanged") };
  });
}
