import pino from "pino";
import pretty from "pino-pretty";
import { env, type Env } from "./config/env";

// Tolerant here: a bad value is reported in one line by the entry point's
// loadEnvOrExit(), which may itself log; the logger falls back to defaults.
function configOrUndefined(): Env | undefined {
  try {
    return env();
  } catch {
    return undefined;
  }
}
const config = configOrUndefined();

// One structured logger for server, CLI and worker. Redaction is by path, so a
// field named like a secret never reaches the output even if a caller passes it.
export const REDACT_PATHS = [
  "secret",
  "*.secret",
  "apiSecret",
  "*.apiSecret",
  "api_secret",
  "*.api_secret",
  "password",
  "*.password",
  "signature",
  "*.signature",
  "headers",
  "*.headers",
  "cardKey",
  "*.cardKey",
  "cardKeys",
  "*.cardKeys",
  "card_keys",
  "*.card_keys",
  "payload",
  "*.payload",
  "manualFormData",
  "*.manualFormData",
  "manual_form_data",
  "*.manual_form_data",
  "body",
  "*.body",
  "formValues",
  "*.formValues",
];

const options: pino.LoggerOptions = {
  level: config?.LOG_LEVEL ?? (config?.NODE_ENV === "test" ? "warn" : "info"),
  redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  base: { pid: process.pid },
};

/**
 * JSON lines for machines; readable lines when a person watches a terminal
 * (issue 10 item 7). pino-pretty as a synchronous stream in this thread, not
 * a worker transport: bundled servers cannot resolve transport targets, and
 * redaction has already happened before the stream sees a line.
 * LOG_FORMAT=json or =pretty overrides the guess.
 */
export function wantsPretty(settings: { LOG_FORMAT?: string } = config ?? {}, isTTY = !!process.stdout.isTTY): boolean {
  if (settings.LOG_FORMAT === "json") return false;
  if (settings.LOG_FORMAT === "pretty") return true;
  return isTTY;
}

export const log = wantsPretty()
  ? pino(options, pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" }))
  : pino(options);
