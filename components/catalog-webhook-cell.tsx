import { ActionForm } from "./action-form";
import { HiddenField } from "./form-fields";
import type { DataCell } from "./data-table";
import type { ActionState } from "@/lib/admin-auth/action-state";

/**
 * Issue 12.2: an API key's catalogue webhook on the API keys page: the URL
 * the downstream registered and a button that removes it (audited).
 */
export function catalogWebhookCell(
  hook: { apiKey: string; url: string | null },
  labels: { none: string; remove: string },
  action: (s: ActionState, f: FormData) => Promise<ActionState>,
): DataCell {
  if (!hook.url) return labels.none;
  return {
    node: (
      <div style={{ whiteSpace: "normal", wordBreak: "break-word", minWidth: 200 }}>
        <div>{hook.url}</div>
        <ActionForm action={action} submitLabel={labels.remove} variant="danger" testId={`remove-webhook-${hook.apiKey}`}>
          <HiddenField name="apiKey" value={hook.apiKey} />
        </ActionForm>
      </div>
    ),
  };
}
