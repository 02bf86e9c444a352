import { ActionForm } from "./action-form";
import { HiddenField } from "./form-fields";
import type { DataRow } from "./data-table";
import type { ActionState } from "@/lib/admin-auth/action-state";

export interface ApiKeyRowData {
  id: number;
  apiKey: string;
  name: string;
  isActive: boolean;
  lastUsed: string;
  created: string;
  owner?: { id: string; email: string };
}

/** Disable button for one key (a form posting the key id to the server action). */
export function DisableKeyButton({
  apiKey,
  label,
  action,
}: {
  apiKey: string;
  label: string;
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
}) {
  return (
    <ActionForm action={action} submitLabel={label} variant="danger" testId={`disable-${apiKey}`}>
      <HiddenField name="apiKey" value={apiKey} />
    </ActionForm>
  );
}

export function apiKeyRows(
  keys: ApiKeyRowData[],
  labels: { active: string; disabled: string; disable: string },
  action: (s: ActionState, f: FormData) => Promise<ActionState>,
): DataRow[] {
  return keys.map((k) => ({
    id: String(k.id),
    cells: {
      apiKey: k.apiKey,
      name: k.name,
      owner: k.owner ? { text: k.owner.email, href: `/admin/buyers/${k.owner.id}` } : "",
      status: { text: k.isActive ? labels.active : labels.disabled, badge: k.isActive ? "active" : "disabled" },
      lastUsedAt: k.lastUsed,
      createdAt: k.created,
      actions: k.isActive ? { node: <DisableKeyButton apiKey={k.apiKey} label={labels.disable} action={action} /> } : "",
    },
  }));
}
