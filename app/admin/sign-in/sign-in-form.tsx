"use client";

import { useState } from "react";
import { signIn } from "next-auth/react";
import { formText } from "@/lib/input/form-text";

// "locked" only for the right password of a locked account (issue 35.4); a wrong one stays "invalid" (issue 8.4).
type ErrorKey = "invalid" | "totp_required" | "locked" | "generic";

/** Credentials form; the code field appears once the server says two-factor is required. */
export function SignInForm({
  messages,
  initialError,
}: {
  messages: { email: string; password: string; code: string; submit: string; busy: string; errors: Record<ErrorKey, string> };
  initialError?: string;
}) {
  const known = (e?: string | null): ErrorKey | null => (e ? (e in messages.errors ? (e as ErrorKey) : "generic") : null);
  const [error, setError] = useState<ErrorKey | null>(known(initialError === "CredentialsSignin" ? "invalid" : initialError));
  const [needCode, setNeedCode] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    const form = new FormData(e.currentTarget);
    const res = await signIn("credentials", {
      redirect: false,
      email: formText(form, "email"),
      password: formText(form, "password"),
      code: formText(form, "code"),
    });
    if (res?.ok && !res.error) {
      window.location.assign("/admin");
      return;
    }
    const reason = known(res?.error ?? "generic");
    if (reason === "totp_required") setNeedCode(true);
    setError(reason);
    setBusy(false);
  }

  return (
    <form
      className="form-grid"
      // React does not await a handler: a request that fails outright reads as a failed sign-in, the form usable again.
      onSubmit={(e) =>
        void onSubmit(e).catch(() => {
          setError(known("generic"));
          setBusy(false);
        })
      }
      data-testid="sign-in-form"
    >
      <div className="field">
        <label htmlFor="email">{messages.email}</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
      </div>
      <div className="field">
        <label htmlFor="password">{messages.password}</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {needCode ? (
        <div className="field">
          <label htmlFor="code">{messages.code}</label>
          <input id="code" name="code" type="text" autoComplete="one-time-code" inputMode="text" autoFocus />
        </div>
      ) : null}
      {error ? (
        <div className={`msg ${error === "totp_required" ? "msg-warn" : "msg-error"}`} role="alert">
          {messages.errors[error]}
        </div>
      ) : null}
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? messages.busy : messages.submit}
        </button>
      </div>
    </form>
  );
}
