import pino from "pino";

// One structured logger for server, CLI and worker. Redaction is by path, so a
// field named like a secret never reaches the output even if a caller passes it.
export const REDACT_PATHS = [
  "secret", "*.secret", "apiSecret", "*.apiSecret", "api_secret", "*.api_secret",
  "password", "*.password", "signature", "*.signature", "headers", "*.headers",
  "cardKey", "*.cardKey", "cardKeys", "*.cardKeys", "card_keys", "*.card_keys",
  "payload", "*.payload", "manualFormData", "*.manualFormData", "manual_form_data",
  "*.manual_form_data", "body", "*.body", "formValues", "*.formValues",
];

export const log = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
  redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  base: { pid: process.pid },
});
