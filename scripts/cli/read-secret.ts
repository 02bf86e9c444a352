// Issue 22.8 (decision 0033): secrets reach the CLI without the command line.
// An argument is readable by every user of the machine (ps, /proc/PID/cmdline)
// and stays in shell history; stdin and a file are not. `--password P` and
// `--api-secret S` keep working for scripts that already use them.
import fs from "node:fs";
import { UsageError } from "./command";

/** More is no password or API secret but a wrong file (a key ring, a dump). */
const MAX_SECRET_BYTES = 64 * 1024;

/** The options that carry a secret another way: `--<name>-stdin` or `--<name>-file F`. */
export const secretFromStdin = (name: string) => ({ [`${name}-stdin`]: { type: "boolean" as const } });
export const secretFromFile = (name: string) => ({ [`${name}-file`]: { type: "string" as const } });

/**
 * The parsed options with `<name>` filled from stdin (`--<name>-stdin`) or a
 * file (`--<name>-file F`) when one of those was given. One line ending at the
 * end is dropped (`echo`, editors); anything else is the secret as written.
 */
export function withSecret(values: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [`${name}-stdin`]: stdin, [`${name}-file`]: file, ...rest } = values;
  const sources = [
    rest[name] !== undefined && `--${name}`,
    stdin === true && `--${name}-stdin`,
    file !== undefined && `--${name}-file`,
  ].filter(Boolean);
  if (sources.length > 1) throw new UsageError(`give only one of ${sources.join(" and ")}`);
  if (stdin === true) return { ...rest, [name]: readSecret(0, `--${name}-stdin`, "stdin") };
  if (typeof file === "string") return { ...rest, [name]: readSecret(file, `--${name}-file`, file) };
  return rest;
}

function readSecret(source: number | string, flag: string, label: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(source);
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${label}: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
  if (bytes.length > MAX_SECRET_BYTES)
    throw new UsageError(`${flag}: ${label} holds more than ${MAX_SECRET_BYTES} bytes; it is not a secret`);
  const text = bytes.toString("utf8").replace(/\r?\n$/, "");
  if (text === "") throw new UsageError(`${flag}: ${label} is empty`);
  return text;
}
