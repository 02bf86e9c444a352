import type { ActionState } from "@/lib/admin-auth/action-state";
import { newOnceToken } from "@/lib/audit/consume-once-token";
import type { Translate } from "@/lib/i18n/messages";
import { ActionForm } from "./action-form";
import { HiddenField, TextArea, TextField } from "./form-fields";

type Action = (s: ActionState, f: FormData) => Promise<ActionState>;

/** The forms' words in the page's language. */
export function orderActionsLabels(t: Translate) {
  return { payload: t("manual.payload"), deliver: t("manual.deliver"), reason: t("manual.failReason"), fail: t("manual.fail") };
}

/** Deliver-with-payload and fail-with-reason forms for one order (manual queue, review queue, order page); each carries a one-time token. */
export function OrderActions({
  orderNo,
  deliver,
  fail,
  labels,
}: {
  orderNo: string;
  deliver: Action;
  fail: Action;
  labels: { payload: string; deliver: string; reason: string; fail: string };
}) {
  return (
    <div className="queue-item">
      <ActionForm action={deliver} submitLabel={labels.deliver} testId={`deliver-${orderNo}`} once={newOnceToken()}>
        <HiddenField name="orderNo" value={orderNo} />
        <TextArea name="payload" id={`payload-${orderNo}`} label={labels.payload} required rows={3} />
      </ActionForm>
      <ActionForm action={fail} submitLabel={labels.fail} variant="danger" testId={`fail-${orderNo}`} once={newOnceToken()}>
        <HiddenField name="orderNo" value={orderNo} />
        <TextField name="reason" id={`reason-${orderNo}`} label={labels.reason} required />
      </ActionForm>
    </div>
  );
}
