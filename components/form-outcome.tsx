import type { LabelledIssue } from "./mark-issues";
import { issueLine } from "./mark-issues";

/** What a submitted form answered: its message, and under a refusal the refused fields in words (issue 35.2). */
export function FormOutcome({ ok, message, issues }: { ok: boolean; message: string; issues: readonly LabelledIssue[] | undefined }) {
  return (
    <div role={ok ? "status" : "alert"} className={`msg ${ok ? "msg-ok" : "msg-error"}`}>
      {message}
      {issues?.length ? (
        <ul className="msg-issues">
          {issues.map((i, n) => (
            <li key={n}>{issueLine(i)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
