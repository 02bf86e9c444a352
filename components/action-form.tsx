"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { CopyButton } from "./copy-button";
import { FormOutcome } from "./form-outcome";
import { markIssues, type LabelledIssue } from "./mark-issues";

type Variant = "primary" | "danger" | "plain";
const buttonClass = (variant: Variant) => (variant === "primary" ? "btn btn-primary" : variant === "danger" ? "btn btn-danger" : "btn");

function Submit({ label, variant, pending }: { label: string; variant: Variant; pending: boolean }) {
  return (
    <button type="submit" className={buttonClass(variant)} disabled={pending} aria-busy={pending}>
      {label}
    </button>
  );
}

/**
 * The one form wrapper of the console: posts to a server action, shows its
 * message, and shows once-only values (secrets) with a copy button. Resets the
 * inputs after a success unless keepValues is set. A refused form keeps what
 * was typed, marks each refused field (aria-invalid) and says, after the
 * field's own label, what is wrong (issue 35.2): the form is sent by hand
 * rather than through `action`, which would empty every field.
 *
 * A form that moves money may pass `confirm` (issue 35.3): the button then
 * asks the question in the page, and only its "yes" sends the form.
 *
 * A money form passes `once`, a one-time token made by the server (issue
 * 22.10): it is sent as `once_token`, so the same submission twice changes
 * money once; after each success the form takes a fresh one for the next.
 */
export function ActionForm({
  action,
  submitLabel,
  children,
  variant = "primary",
  keepValues = false,
  copyLabel = "Copy",
  copiedLabel = "Copied",
  testId,
  once,
  confirm,
}: {
  action: (state: ActionState, form: FormData) => Promise<ActionState>;
  submitLabel: string;
  children?: ReactNode;
  variant?: "primary" | "danger" | "plain";
  keepValues?: boolean;
  copyLabel?: string;
  copiedLabel?: string;
  testId?: string;
  once?: string;
  confirm?: { question: string; yes: string; no: string };
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const ref = useRef<HTMLFormElement>(null);
  const [token, setToken] = useState(once);
  const [asking, setAsking] = useState(false);
  const [labelled, setLabelled] = useState<LabelledIssue[]>([]);
  useEffect(() => {
    setAsking(false);
    if (state?.ok && !keepValues) ref.current?.reset();
    if (state?.ok && once) setToken(freshToken());
    const form = ref.current;
    if (!form) return;
    setLabelled(markIssues(form, state?.issues ?? []));
  }, [state, keepValues, once]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (confirm && !asking) return setAsking(true);
    const data = new FormData(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter);
    startTransition(() => formAction(data));
  };
  return (
    // `action` as well as onSubmit: without JavaScript (or before it loads) the
    // form still posts to its server action; with it, submit() sends it by hand.
    <form ref={ref} action={formAction} onSubmit={submit} className="form-grid" data-testid={testId}>
      {token ? <input type="hidden" name="once_token" value={token} /> : null}
      {children}
      {confirm && asking ? (
        <div className="confirm" role="alertdialog" aria-label={submitLabel}>
          <p>{confirm.question}</p>
          <div className="btn-row">
            <Submit label={confirm.yes} variant={variant} pending={pending} />
            <button type="button" className="btn" onClick={() => setAsking(false)}>
              {confirm.no}
            </button>
          </div>
        </div>
      ) : (
        <div>
          {confirm ? (
            <button type="button" className={buttonClass(variant)} onClick={() => setAsking(true)}>
              {submitLabel}
            </button>
          ) : (
            <Submit label={submitLabel} variant={variant} pending={pending} />
          )}
        </div>
      )}
      {state ? <FormOutcome ok={state.ok} message={state.message} issues={labelled} /> : null}
      {state?.reveal?.length ? (
        <div className="reveal" data-testid="reveal">
          {state.revealNote ? (
            <p>
              <strong>{state.revealNote}</strong>
            </p>
          ) : null}
          <dl>
            {state.reveal.map((r) => (
              <div key={r.label}>
                <dt>{r.label}</dt>
                <dd>
                  <code data-reveal={r.label}>{r.value}</code> <CopyButton value={r.value} label={copyLabel} copiedLabel={copiedLabel} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </form>
  );
}

/** 128 random bits, base64url, as OnceTokenSchema wants (getRandomValues works on plain-http consoles too). */
function freshToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
