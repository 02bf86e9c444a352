// Issue 35.2: a refused form marks each refused field (aria-invalid), moves
// the focus to the first, and says what is wrong after the field's own label,
// never its internal name. Shared by the console's ActionForm and the
// portal's PortalForm (browser code: runs in their effects and handlers).

export type LabelledIssue = { label: string; colon: string; message: string };

export function markIssues(form: HTMLFormElement, issues: readonly { field: string; message: string }[]): LabelledIssue[] {
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  const fields = issues.map((i) => form.querySelector<HTMLElement>(`[name="${CSS.escape(i.field)}"]:not([type=hidden])`));
  fields.forEach((el) => el?.setAttribute("aria-invalid", "true"));
  fields.find(Boolean)?.focus();
  const colon = form.closest("[lang]")?.getAttribute("lang")?.startsWith("zh") ? "：" : ": ";
  return issues.map((i, n) => ({ label: labelOf(form, fields[n]), colon, message: i.message }));
}

/** The visible label of a form control (its <label for>), without a trailing colon. */
function labelOf(form: HTMLFormElement, el: HTMLElement | null): string {
  const label = el?.id ? form.querySelector(`label[for="${CSS.escape(el.id)}"]`) : el?.closest("label");
  return (label?.textContent ?? "").trim().replace(/[:：]$/, "");
}

/** The list under a refused form's message. */
export const issueLine = (i: LabelledIssue) => (i.label ? `${i.label}${i.colon}${i.message}` : i.message);
