"use server";

import { adminActor, type ActionState, revalidatePath, runAdminAction, z } from "@/lib/admin-auth/console-action";
import { OnceTokenSchema } from "@/lib/audit/consume-once-token";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { addChannel } from "@/lib/payments/add-channel";
import { ChannelInputSchema } from "@/lib/payments/channel-input";
import { confirmPayment, ConfirmPaymentSchema } from "@/lib/payments/confirm-payment";
import { notifyUrl } from "@/lib/payments/payment-view";
import { queryPayment } from "@/lib/payments/query-payment";
import { setChannelEnabled } from "@/lib/payments/set-channel-enabled";
import { Int4IdSchema } from "@/lib/protocol/ids";
import { getSettings } from "@/lib/settings/get-settings";

// Issue 36: the console's payment forms. Confirming by hand moves money, so it
// carries a one-time token (ActionForm's `once`); a channel's secrets go to the
// service and are never sent back to the page.

const PaymentNoSchema = ConfirmPaymentSchema.shape.paymentNo;

/** Reloads the list and the one payment's page after it may have changed. */
function refreshPayment(paymentNo: string) {
  revalidatePath("/admin/payments");
  revalidatePath(`/admin/payments/${encodeURIComponent(paymentNo)}`);
}

/** A form sends an empty optional field as ""; the channel's rules read that as "not given" (defaults apply). */
const withoutBlanks = (raw: unknown) =>
  typeof raw === "object" && raw !== null ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "")) : raw;

export async function addChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.preprocess(withoutBlanks, ChannelInputSchema), form, async (input, { admin, t }) => {
    const channel = await addChannel({ input, actor: adminActor(admin) });
    revalidatePath("/admin/payments/channels");
    const url = notifyUrl((await getSettings()).publicBaseUrl, channel.id);
    return { ok: true, message: t("payments.channels.addedNotify", { name: channel.name, url }) };
  });
}

export async function setChannelEnabledAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ id: Int4IdSchema, enabled: z.enum(["true", "false"]) }), form, async (input, { admin, t }) => {
    await setChannelEnabled({ id: input.id, enabled: input.enabled === "true", actor: adminActor(admin) });
    revalidatePath("/admin/payments/channels");
    return { ok: true, message: t("payments.channels.changed") };
  });
}

/** Asks the gateway now; a paid answer is applied exactly as a notify is (credited once). */
export async function queryPaymentAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(z.object({ paymentNo: PaymentNoSchema }), form, async (input, { t }) => {
    let r;
    try {
      r = await queryPayment(input.paymentNo);
    } catch (err) {
      // A gateway that is down or answers nonsense is a message for the operator, not an internal error.
      if (err instanceof AppError) throw err;
      log.warn(
        { component: "payments", paymentNo: input.paymentNo, err: err instanceof Error ? err.message : String(err) },
        "payment query failed",
      );
      return { ok: false, message: t("payments.admin.queryFailed") };
    }
    refreshPayment(input.paymentNo);
    if (!r.supported) return { ok: false, message: t("payments.admin.queryUnsupported") };
    return { ok: true, message: `${t("payments.admin.queried")} ${t(`payments.admin.answer.${r.outcome ?? "none"}`)}` };
  });
}

export async function confirmPaymentAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return runAdminAction(ConfirmPaymentSchema.extend({ once_token: OnceTokenSchema }), form, async (input, { admin, t }) => {
    await confirmPayment({
      input: { paymentNo: input.paymentNo, reference: input.reference },
      actor: adminActor(admin),
      onceToken: input.once_token,
    });
    refreshPayment(input.paymentNo);
    return { ok: true, message: t("payments.admin.confirmed") };
  });
}
