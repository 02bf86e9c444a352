"use client";

import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { CopyButton } from "./copy-button";
import { FormOutcome } from "./form-outcome";
import { markIssues, type LabelledIssue } from "./mark-issues";

export interface PortalFormResult {
  ok: boolean;
  message?: string;
  /** A refused form's fields, each after its label (issue 35.2). */
  issues?: LabelledIssue[];
  /** Values shown once (a new API secret, revealed card keys); never stored in the page or the URL. */
  reveal?: { label: string; value: string }[];
}

/**
 * The portal's form: posts its fields as JSON to a portal action
 * (/portal/api/…, lib/portal-auth/portal-route.ts), shows the answer and any
 * once-only values with a copy button, then refreshes the page's data.
 */
export function PortalForm({
  action,
  submitLabel,
  children,
  variant = "primary",
  labels,
  okMessage,
  testId,
  revealLabel,
  refresh = true,
  openUrlFrom,
}: {
  action: string;
  submitLabel: string;
  children?: ReactNode;
  variant?: "primary" | "danger" | "plain";
  labels: { copy: string; copied: string; busy: string; error: string; fix: string };
  okMessage: string;
  testId?: string;
  /** Label of each value the action returns in `lines` (revealed card keys). */
  revealLabel?: string;
  /** false: keep the page as it is after success (a page that would swap this form away would lose once-only values). */
  refresh?: boolean;
  /** The answer's field holding a page to open on success (a payment's pay_url: the gateway's own page). */
  openUrlFrom?: string;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<PortalFormResult | null>(null);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    setBusy(true);
    const body: Record<string, string> = {};
    for (const [k, v] of new FormData(form).entries()) if (typeof v === "string") body[k] = v;
    try {
      const res = await fetch(action, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const answer = (await res.json().catch(() => ({}))) as {
        ok?: boolean;
        message?: string;
        reveal?: PortalFormResult["reveal"];
        lines?: string[];
        issues?: { field: string; message: string }[];
      } & Record<string, unknown>;
      if (res.status === 401) {
        window.location.assign("/portal/sign-in");
        return;
      }
      const reveal =
        answer.reveal ??
        (answer.lines ? answer.lines.map((value, i) => ({ label: `${revealLabel ?? ""} ${i + 1}`.trim(), value })) : undefined);
      // What was typed stays (no reset) and each refused field is marked, named by its label.
      const issues = answer.ok ? [] : markIssues(form, answer.issues ?? []);
      setResult(
        answer.ok
          ? { ok: true, message: okMessage, reveal }
          : issues.length
            ? { ok: false, message: labels.fix, issues }
            : { ok: false, message: labels.error.replace("{message}", answer.message ?? String(res.status)) },
      );
      const next = openUrlFrom ? answer[openUrlFrom] : undefined;
      if (answer.ok && typeof next === "string" && /^https?:\/\//.test(next)) {
        window.location.assign(next);
        return;
      }
      if (answer.ok) {
        form.reset();
        if (refresh) router.refresh();
      }
    } finally {
      setBusy(false);
    }
  }
  const cls = variant === "primary" ? "btn btn-primary" : variant === "danger" ? "btn btn-danger" : "btn";
  return (
    <form className="form-grid" onSubmit={(e) => void onSubmit(e)} data-testid={testId}>
      {children}
      <div>
        <button type="submit" className={cls} disabled={busy} aria-busy={busy}>
          {busy ? labels.busy : submitLabel}
        </button>
      </div>
      {result ? <FormOutcome ok={result.ok} message={result.message ?? ""} issues={result.issues} /> : null}
      {result?.reveal?.length ? (
        <div className="reveal" data-testid="reveal">
          <dl>
            {result.reveal.map((r) => (
              <div key={r.label}>
                <dt>{r.label}</dt>
                <dd>
                  <code data-reveal={r.label}>{r.value}</code>{" "}
                  <CopyButton value={r.value} label={labels.copy} copiedLabel={labels.copied} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </form>
  );
}
