/** The outcome of sending one message on a channel; `error` is our own short text, never a secret. */
export interface SendResult {
  ok: boolean;
  error: string | null;
  durationMs: number;
}
