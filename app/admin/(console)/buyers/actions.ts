"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { OnceTokenSchema } from "@/lib/audit/consume-once-token";
import { AdjustReasonSchema, adjustPoints, PointsDeltaSchema } from "@/lib/users/adjust-points";
import { formatAmount, NonNegativeAmountInputSchema } from "@/lib/protocol/amount";
import { EmailSchema } from "@/lib/users/email";
import { createUser } from "@/lib/users/create-user";
import { setMemberLevel } from "@/lib/users/set-member-level";
import { approveRegistration } from "@/lib/users/approve-registration";
import { disableUser } from "@/lib/users/disable-user";
import { inviteBuyer } from "@/lib/users/invite-buyer";
import { resetBuyerTwoFactor } from "@/lib/users/reset-buyer-two-factor";

// Thin: the services write their own audit rows in their own transactions.

const CreateBuyerSchema = z.object({
  email: EmailSchema,
  // A points field left blank opens the account at zero.
  points: z
    .string()
    .trim()
    .transform((s) => s || "0")
    .pipe(NonNegativeAmountInputSchema)
    .default(0n),
});

export async function createBuyerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(CreateBuyerSchema, form, async (input, { admin, t }) => {
    await createUser({ email: input.email, initialPointsCents: input.points, actor: adminActor(admin) });
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.created") };
  });
}

// Issue 22.10: a money form carries a one-time token (ActionForm's `once`).
const AdjustSchema = z.object({ email: EmailSchema, amount: PointsDeltaSchema, reason: AdjustReasonSchema, once_token: OnceTokenSchema });

export async function adjustPointsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(AdjustSchema, form, async (input, { admin, t }) => {
    const balance = await adjustPoints({
      email: input.email,
      deltaCents: input.amount,
      reason: `admin: ${input.reason}`,
      actor: adminActor(admin),
      onceToken: input.once_token,
    });
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.adjusted", { balance: formatAmount(balance) }) };
  });
}

const LevelSchema = z.object({ userId: z.string(), level: z.string() });

export async function setMemberLevelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(LevelSchema, form, async (input, { admin, t }) => {
    // The service checks both fields (SetMemberLevelSchema).
    await setMemberLevel({ userId: input.userId, level: input.level }, { actor: adminActor(admin) });
    revalidatePath(`/admin/buyers/${input.userId}`);
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("buyers.levelChanged") };
  });
}

// Issue 24.1: the portal's onboarding from the console; the link is shown once, in the answer.
export async function inviteBuyerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ email: EmailSchema }), form, async (input, { admin, t }) => {
    const r = await inviteBuyer({ email: input.email, actor: adminActor(admin) });
    revalidatePath("/admin/buyers");
    // Issue 35.4: say whether the mail went, so the operator knows to pass the link on.
    return {
      ok: true,
      message: t(r.emailed ? "topUps.invitedMailed" : "topUps.invited"),
      reveal: [{ label: t("topUps.inviteLink"), value: r.inviteUrl }],
    };
  });
}

export async function disableBuyerAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ email: EmailSchema }), form, async (input, { admin, t }) => {
    await disableUser({ email: input.email, actor: adminActor(admin) });
    revalidatePath("/admin/buyers");
    return { ok: true, message: t("topUps.disabled") };
  });
}

export async function approveRegistrationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ userId: z.uuid() }), form, async (input, { admin, t }) => {
    await approveRegistration({ userId: input.userId, actor: adminActor(admin) });
    revalidatePath(`/admin/buyers/${input.userId}`);
    return { ok: true, message: t("topUps.registrationApproved") };
  });
}

/** Issue 24.1: the buyer lost both the authenticator and the recovery codes (as `user:two-factor-off`). */
export async function resetBuyerTwoFactorAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ email: EmailSchema }), form, async (input, { admin, t }) => {
    const r = await resetBuyerTwoFactor({ email: input.email, actor: adminActor(admin) });
    revalidatePath(`/admin/buyers/${r.id}`);
    return { ok: true, message: t("security.disabledDone") };
  });
}
