"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { auditAdmin } from "@/lib/admin-auth/audit-admin";
import { runAdminAction } from "@/lib/admin-auth/run-action";
import { adjustPoints } from "@/lib/points/adjust-points";
import { formatAmount, isAmount, parseAmount } from "@/lib/protocol/amount";
import { createUser } from "@/lib/users/create-user";
import { setMemberLevel } from "@/lib/users/set-member-level";

const Email = z.email().max(254).transform((e) => e.trim().toLowerCase());
const Amount = z.string().trim().refine(isAmount, "must be an amount with at most two decimals, e.g. 10.00");

const CreateBuyerSchema = z.object({
  email: Email,
  points: z.string().trim().default("0").refine((s) => s === "" || (isAmount(s) && !s.startsWith("-")), "must be a non-negative amount"),
});

export async function createBuyerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(CreateBuyerSchema, form, async (input, { admin, t }) => {
    const user = await createUser({ email: input.email, initialPointsCents: input.points ? parseAmount(input.points) : 0n });
    await auditAdmin({ adminUserId: admin.id, actor: admin.email, action: "user.create", targetType: "user", targetId: user.id, details: { email: user.email, points: formatAmount(user.balanceCents) }, ip: admin.ip });
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.created") };
  });
}

const AdjustSchema = z.object({
  email: Email,
  amount: Amount.refine((s) => parseAmount(s) !== 0n, "must not be zero"),
  reason: z.string().trim().min(1, "is required").max(200),
});

export async function adjustPointsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(AdjustSchema, form, async (input, { admin, t }) => {
    const deltaCents = parseAmount(input.amount);
    const balance = await adjustPoints({ email: input.email, deltaCents, reason: `admin: ${input.reason}`, adminUserId: admin.id });
    await auditAdmin({ adminUserId: admin.id, actor: admin.email, action: "points.adjust", targetType: "user", targetId: input.email, details: { amount: formatAmount(deltaCents), reason: input.reason, balance: formatAmount(balance) }, ip: admin.ip });
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.adjusted", { balance: formatAmount(balance) }) };
  });
}

const LevelSchema = z.object({ userId: z.uuid(), level: z.string().trim().min(1).max(100) });

export async function setMemberLevelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(LevelSchema, form, async (input, { admin, t }) => {
    await setMemberLevel({ userId: input.userId, levelSlug: input.level, admin });
    revalidatePath(`/admin/buyers/${input.userId}`);
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.levelChanged") };
  });
}
