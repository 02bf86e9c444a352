import { ConfigError, env, wantsStackTraces } from "../config/env";
import { StartupError } from "../config/startup-error";

/**
 * Issue 10.6: turns the failures an operator can act on into one line saying
 * what is wrong and what to do; anything else keeps its message (the stack
 * only with CLI_DEBUG). Always exits non-zero.
 */
export function startupMessage(err: unknown): string {
  if (err instanceof StartupError) return err.message;
  const e = err as NodeJS.ErrnoException | undefined;
  const text = String(e?.message ?? err);
  if (e?.code === "ENOSPC" || /No space left on device/i.test(text)) {
    return `the disk is full (${e?.path ?? env().DATA_DIR}): free some space on it, or set DATA_DIR to a disk with room, then start again`;
  }
  if (e?.code === "EADDRINUSE") {
    return `port ${(e as { port?: number }).port ?? env().PORT} is already in use: stop the program using it, or set PORT to a free port`;
  }
  if (e?.code === "EACCES" || e?.code === "EPERM") {
    return `permission denied on ${e.path ?? "a file"} (as uid ${process.getuid?.()}): give this user read and write access to DATA_DIR (${env().DATA_DIR}), or set DATA_DIR to a directory it owns`;
  }
  return text.split("\n")[0];
}

export function exitOnStartupError(program: string, err: unknown): never {
  // Issue 22.8: a secret file in DATA_DIR that fails the configuration's rules
  // is a configuration error like a variable's (loadEnvOrExit): one line, exit 2.
  if (err instanceof ConfigError) {
    process.stderr.write(`${program}: configuration error: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${program}: ${startupMessage(err)}\n`);
  if (wantsStackTraces()) process.stderr.write(`${(err as Error)?.stack}\n`);
  process.exit(1);
}

/** Rejects with EADDRINUSE when something already listens on `port` (checked on every interface, as the server listens). */
export async function assertPortFree(port: number): Promise<void> {
  const net = await import("node:net");
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

/** Issue 10.6: DATA_DIR must be a directory this user may read, write and enter; said in one line before anything is written. */
export async function assertDataDirUsable(dir: string): Promise<void> {
  const fs = await import("node:fs");
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st) return; // created on first start
  const fix = `give user ${process.getuid?.()} read and write access to it (e.g. chown -R ${process.getuid?.()} ${dir}), or set DATA_DIR to a directory it owns`;
  if (!st.isDirectory()) throw new StartupError(`DATA_DIR ${dir} is not a directory: set DATA_DIR to a directory`);
  try {
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw new StartupError(`DATA_DIR ${dir} cannot be read and written by this user: ${fix}`);
  }
}
