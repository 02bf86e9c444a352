/**
 * What a server action hands back to <ActionForm>: a message to show, and
 * optionally values shown ONCE (a new API secret, recovery codes) that are
 * never stored in the page or the URL.
 */
export type ActionState = {
  ok: boolean;
  message: string;
  reveal?: { label: string; value: string }[];
  revealNote?: string;
  /** Issue 35.2: each field that was refused (its form name) and why, in the page's language. */
  issues?: { field: string; message: string }[];
  /** Bumps on every result so the form can reset after success. */
  at?: number;
} | null;
