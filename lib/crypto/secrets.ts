import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ConfigError, env } from "../config/env";
import { dataDir } from "../config/paths";
import { log } from "../log";

/**
 * Resolves SECRET_KEY and NEXTAUTH_SECRET: from the environment when set,
 * otherwise generated once into DATA_DIR (mode 0600) and reused afterwards.
 * Sets them on process.env so child processes (the Next server) inherit them.
 */
export function ensureSecrets(): { secretKey: string; nextAuthSecret: string } {
  const secretKey = readOrGenerate("SECRET_KEY", "secret-key");
  const nextAuthSecret = readOrGenerate("NEXTAUTH_SECRET", "nextauth-secret");
  return { secretKey, nextAuthSecret };
}

/**
 * SECRET_KEY as ensureSecrets resolves it, but never generated: undefined when
 * neither the variable nor DATA_DIR's file exists (`backup:verify` runs
 * without a database and must not invent a key for an archive to fail against).
 */
export function existingSecretKey(): string | undefined {
  const file = path.join(dataDir(), "secret-key");
  return env().SECRET_KEY || (fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : undefined);
}

/**
 * Issue 22.8: a value read from DATA_DIR (hand-edited, or left by an old
 * install) meets the same rule as the variable (decision 0033), checked by the
 * one schema as soon as it is set (before dataDir() parses the environment
 * again); the error names the file, since the operator set no variable. Entry points turn the ConfigError into one line
 * and exit 2.
 */
function checkSecret(envName: string, file: string): void {
  try {
    env();
  } catch (err) {
    if (err instanceof ConfigError && err.message.startsWith(envName)) throw new ConfigError(`${err.message} (read from ${file})`);
    throw err;
  }
}

/** Issue 35.5: what each generated secret is for, so the warning says what losing its file costs. */
const PURPOSE: Record<string, string> = {
  SECRET_KEY:
    "It encrypts the stored secrets (API secrets, card keys, two-factor secrets). BACK UP THIS FILE — without it encrypted data cannot be read.",
  NEXTAUTH_SECRET: "It signs the admin console's sessions: keep it with the data; a new one only signs every administrator out.",
};

function readOrGenerate(envName: string, fileName: string): string {
  const fromEnv = process.env[envName];
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir(), fileName);
  let value: string;
  if (fs.existsSync(file)) {
    value = fs.readFileSync(file, "utf8").trim();
  } else {
    fs.mkdirSync(dataDir(), { recursive: true });
    value = crypto.randomBytes(32).toString("base64url");
    // Written aside, then linked into place: another process starting at the
    // same moment never reads a half-written file, and the second link fails.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, value + "\n", { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      return readOrGenerate(envName, fileName); // theirs won: use it
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    log.warn({ file }, `${envName} was not set: generated one into ${file}. ${PURPOSE[envName]}`);
  }
  process.env[envName] = value;
  checkSecret(envName, file);
  return value;
}
