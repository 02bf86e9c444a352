import net from "node:net";
import { z } from "zod";
import { parseTrustedProxies } from "./trusted-proxies";

/**
 * Issue 10 item 5, docs/decisions/0017: the one typed configuration. Every
 * environment variable the server, the CLI and the worker read is declared
 * here, with its default and what is allowed; the rest of the code reads
 * `env().X`, never process.env. Entry points call `loadEnvOrExit()` first, so
 * a bad value stops them at once with one line naming the variable (exit 2),
 * instead of failing later inside a job. A blank value counts as unset (as
 * compose files and `.env` lines often leave them).
 */
const blank = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** One variable: `parse` returns undefined for a bad value, which becomes `VAR must be <allowed>`. */
function variable<T>(allowed: string, parse: (raw: string) => T | undefined) {
  return z.preprocess(blank, z.string().optional()).transform((raw, ctx): T | undefined => {
    if (raw === undefined) return undefined;
    const value = parse(raw);
    if (value === undefined) ctx.addIssue({ code: "custom", message: allowed });
    return value;
  });
}
function withDefault<T>(allowed: string, fallback: T, parse: (raw: string) => T | undefined) {
  return variable(allowed, parse).transform((v) => (v === undefined ? fallback : v));
}
const int = (min: number, max: number, fallback: number) =>
  withDefault(`a whole number from ${min} to ${max}`, fallback, (s) =>
    /^[0-9]+$/.test(s) && Number(s) >= min && Number(s) <= max ? Number(s) : undefined,
  );
const bool = (fallback: boolean) =>
  withDefault("true or false", fallback, (s) => (s === "true" ? true : s === "false" ? false : undefined));
const oneOf = <T extends string>(values: readonly T[]) =>
  variable(`one of ${values.join(", ")}`, (s) => ((values as readonly string[]).includes(s) ? (s as T) : undefined));
const text = () => variable("a text", (s) => s);
/** Comma-separated seconds (decimals allowed), at least one, none negative: back-off schedules. */
const schedule = () =>
  variable("comma-separated seconds, each 0 or more (e.g. 2,5,10)", (s) => {
    const seconds = s.split(",").map((p) => (/^\d+(\.\d+)?$/.test(p.trim()) ? Number(p.trim()) : NaN));
    return seconds.every(Number.isFinite) ? seconds : undefined;
  });
/**
 * Issue 22.8, docs/decisions/0033: a master secret carries at least 32 bytes
 * (256 bits) of key material. Key material is counted by the alphabet the
 * value is written in: a value of hex digits only carries 4 bits a character
 * (64 characters needed), any other value is counted at 6 bits a character,
 * as base64 is (43 characters needed, the length of 32 random bytes in
 * base64url, which is what start generates). Characters are Unicode code
 * points. A shorter value is a typo or a word, never a key.
 */
export const MIN_SECRET_KEY_BITS = 256;
export function secretKeyBits(value: string): number {
  return [...value].length * (/^[0-9a-f]+$/i.test(value) ? 4 : 6);
}
const masterSecret = () =>
  variable("at least 32 bytes of key material: 64 hex digits or 43 base64 characters (e.g. the output of openssl rand -base64 32)", (s) =>
    secretKeyBits(s) >= MIN_SECRET_KEY_BITS ? s : undefined,
  );
/** A bearer token compared as text: at least 32 characters, so it cannot be guessed over the network. */
export const MIN_METRICS_TOKEN_LENGTH = 32;
const bearerToken = () =>
  variable(`at least ${MIN_METRICS_TOKEN_LENGTH} characters (e.g. the output of openssl rand -hex 16)`, (s) =>
    [...s].length >= MIN_METRICS_TOKEN_LENGTH ? s : undefined,
  );
const url = (protocols: string[]) =>
  variable(`a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`, (s) => {
    try {
      return protocols.includes(new URL(s).protocol) ? s : undefined;
    } catch {
      return undefined;
    }
  });

/** Comma-separated nameservers as dns.setServers takes them: `1.1.1.1`, `127.0.0.1:5353`, `2001:db8::1`, `[::1]:53`. */
const nameservers = () =>
  variable("comma-separated nameserver addresses, each an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)", (s) => {
    const list = s.split(",").map((p) => p.trim());
    const valid = (p: string) => {
      const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(p) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(p);
      if (!m) return net.isIPv6(p);
      return net.isIP(m[1]) !== 0 && (m[2] === undefined || (Number(m[2]) >= 1 && Number(m[2]) <= 65535));
    };
    return list.every(valid) ? list : undefined;
  });

export const EnvSchema = z.object({
  NODE_ENV: oneOf(["development", "production", "test"] as const),
  PORT: int(0, 65535, 3000),
  DATA_DIR: withDefault("a directory path", ".data", (s) => s),
  DATABASE_URL: url(["postgres:", "postgresql:"]),
  DB_POOL_SIZE: int(1, 500, 20),
  RATE_LIMIT_POOL_SIZE: int(1, 100, 6),
  SECRET_KEY: masterSecret(),
  NEXTAUTH_SECRET: masterSecret(),
  NEXTAUTH_URL: url(["http:", "https:"]),
  LOG_LEVEL: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const),
  LOG_FORMAT: oneOf(["json", "pretty"] as const),
  ADMIN_EMAIL: variable("an e-mail address", (s) => (/^[^@\s]+@[^@\s]+$/.test(s) ? s : undefined)),
  ADMIN_PASSWORD: variable("at least 10 characters", (s) => (s.length >= 10 ? s : undefined)),
  WORKER_IN_SERVER: bool(true),
  WORKER_CONCURRENCY: int(1, 64, 4),
  WORKER_POLL_INTERVAL_MS: int(10, 3_600_000, 1000),
  WORKER_SWEEP_INTERVAL_MS: int(100, 3_600_000, 15_000),
  CALLBACK_ALLOW_PRIVATE_NETWORKS: bool(false),
  CALLBACK_RETRY_SCHEDULE: schedule(),
  CALLBACK_TIMEOUT_MS: int(1, 600_000, 10_000),
  CATALOG_EVENT_INTERVAL_SECONDS: int(1, 86_400, 10),
  CATALOG_EVENT_STOCK_THRESHOLDS: withDefault("comma-separated whole numbers (e.g. 10,0)", [10, 0], (s) => {
    const parts = s.split(",").map((p) => p.trim());
    return parts.every((p) => /^[0-9]{1,9}$/.test(p)) ? parts.map(Number) : undefined;
  }),
  DNS_SERVERS: nameservers(),
  UPSTREAM_HTTP_TIMEOUT_MS: int(1, 600_000, 15_000),
  UPSTREAM_POLL_SCHEDULE: schedule(),
  UPSTREAM_CALLBACK_BASE_URL: url(["http:", "https:"]),
  UPSTREAM_BREAKER_FAILURES: int(1, 1000, 5),
  UPSTREAM_BREAKER_OPEN_SECONDS: int(1, 86_400, 30),
  UPSTREAM_STOCK_REFRESH_SECONDS: int(0, 86_400, 60),
  TRUSTED_PROXIES: z.preprocess(blank, z.string().optional()).transform((raw, ctx) => {
    try {
      return parseTrustedProxies(raw);
    } catch (err) {
      // parseTrustedProxies' message is a whole sentence naming the variable and the bad entry.
      ctx.addIssue({ code: "custom", message: (err as Error).message, params: { sentence: true } });
      return () => false;
    }
  }),
  MAX_CONNECTIONS_PER_ADDRESS: int(1, 1_000_000, 256),
  SHUTDOWN_DELAY_MS: int(0, 120_000, 5000),
  AUTH_FAILURES_PER_MINUTE: int(0, 1_000_000, 300),
  METRICS_TOKEN: bearerToken(),
  ENABLE_BENCH_ROUTES: oneOf(["1", "0"] as const),
  // Issue 25: operator alerts (docs/alerts.md).
  ALERT_FOLD_WINDOW_SECONDS: int(1, 3600, 60),
  ALERT_CHECK_INTERVAL_SECONDS: int(1, 3600, 15),
  ALERT_TIME_ZONE: withDefault("an IANA time zone (e.g. Asia/Shanghai)", "UTC", (s) => {
    try {
      return new Intl.DateTimeFormat("en", { timeZone: s }).resolvedOptions().timeZone ? s : undefined;
    } catch {
      return undefined;
    }
  }),
  TELEGRAM_POLLING: bool(false),
  CLI_DEBUG: text(),
  // Decision 0050: how long an embedded PostgreSQL started by the CLI stays up with no client.
  CLI_EMBEDDED_LINGER_SECONDS: int(1, 86_400, 10),
  NEXT_DIST_DIR: withDefault("a directory name", ".next", (s) => s),
});

export type Env = z.infer<typeof EnvSchema>;
export const ENV_VARIABLES = Object.keys(EnvSchema.shape) as (keyof Env)[];

/** Read only by tests and benchmarks, never by the product: listed in CONTRIBUTING.md's table, not in the schema. */
export const TEST_VARIABLES = ["TEST_DATABASE_URL", "SKIP_BUILD", "CHROMIUM_PATH", "E2E_PORT", "FUZZ_RUNS"] as const;

export class ConfigError extends Error {}

let cache: { key: string; value: Env } | undefined;

/**
 * The parsed configuration. Parsed once and kept; parsed again only when the
 * environment itself changed (start sets DATABASE_URL and generated secrets
 * after the first parse, and tests switch variables between cases).
 */
export function env(): Env {
  const key = ENV_VARIABLES.map((k) => process.env[k] ?? "\u0000").join("\u0001");
  if (cache?.key === key) return cache.value;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // The value itself is never echoed: it may be a secret.
    const sentence = issue.code === "custom" && issue.params?.sentence === true;
    throw new ConfigError(sentence ? issue.message : `${String(issue.path[0])} must be ${issue.message}`);
  }
  cache = { key, value: parsed.data };
  return parsed.data;
}

/**
 * CLI_DEBUG for an error path: read raw, because that path may be reporting
 * a configuration that no longer parses, where env() would throw again.
 */
export function wantsStackTraces(): boolean {
  return Boolean(process.env.CLI_DEBUG);
}

/** For entry points: the configuration, or one line on stderr and exit code 2 (no stack trace). */
export function loadEnvOrExit(program: string): Env {
  try {
    return env();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${program}: configuration error: ${err.message}\n`);
    process.exit(2);
  }
}

/** TRUSTED_PROXIES as typed: the start-up warning about a hop count (issue 33.7) names it; the parsed value is a function. */
export function trustedProxiesText(): string | undefined {
  return process.env.TRUSTED_PROXIES;
}
