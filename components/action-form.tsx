"use client";

import { useActionState, useEffect, useRef, useState, type ReactNode } from "react";
import { useFormStatus } from "react-dom";
import type { ActionState } from "@/lib/admin-auth/action-state";
import { CopyButton } from "./copy-button";

function Submit({ label, variant }: { label: string; variant: "primary" | "danger" | "plain" }) {
  const { pending } = useFormStatus();
  const cls = variant === "primary" ? "btn btn-primary" : variant === "danger" ? "btn btn-danger" : "btn";
  return (
    <button type="submit" className={cls} disabled={pending} aria-busy={pending}>
      {label}
    </button>
  );
}

/**
 * The one form wrapper of the console: posts to a server action, shows its
 * message, and shows once-only values (secrets) with a copy button. Resets the
 * inputs after a success unless keepValues is set.
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
}) {
  const [state, formAction] = useActionState(action, null);
  const ref = useRef<HTMLFormElement>(null);
  const [token, setToken] = useState(once);
  useEffect(() => {
    if (state?.ok && !keepValues) ref.current?.reset();
    if (state?.ok && once) setToken(freshToken());
  }, [state, keepValues, once]);
  return (
    <form ref={ref} action={formAction} className="form-grid" data-testid={testId}>
      {token ? <input type="hidden" name="once_token" value={token} /> : null}
      {children}
      <div>
        <Submit label={submitLabel} variant={variant} />
      </div>
      {state ? (
        <div role={state.ok ? "status" : "alert"} className={`msg ${state.ok ? "msg-ok" : "msg-error"}`}>
          {state.message}
        </div>
      ) : null}
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
