// Checks one command's arguments, before the database is touched.
import { parseArgs } from "node:util";
import type { z } from "zod";
import { type Command, type Options, UsageError } from "./command";

export type Commands = Record<string, Command<z.ZodType>>;

function usage(commands: Commands): string {
  return ["usage: npm run cli -- <command> [--init]", ...Object.values(commands).map((c) => `  ${c.usage}`)].join("\n");
}

/** Validates the arguments of one of `commands` without touching the database. */
export function checkArgs(commands: Commands, argv: string[]) {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") throw new UsageError(usage(commands));
  if (!Object.hasOwn(commands, name)) throw new UsageError(`unknown command ${JSON.stringify(name)}\n${usage(commands)}`);
  const cmd = commands[name];
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(rest, cmd.options),
      options: cmd.options,
      allowPositionals: !!cmd.positionals,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split("\n")[0]}\nusage: npm run cli -- ${cmd.usage}`);
  }
  const raw = cmd.input(parsed.values, parsed.positionals) as Record<string, unknown>;
  const checked = cmd.schema.safeParse(raw);
  if (!checked.success) {
    const problems = checked.error.issues.map((i) => {
      // Only settings:set takes key=value pairs into a strict object: its keys are the settings.
      if (i.code === "unrecognized_keys") return `unknown setting ${i.keys.join(", ")} (known: ${knownKeys(cmd.schema).join(", ")})`;
      const key = String(i.path[0] ?? "");
      const nested = cmd.flagOf?.(i.path, raw);
      if (nested) return `${nested}: ${i.message}`;
      const label = cmd.positionals ? key : `--${key}`;
      return raw?.[key] === undefined ? `${label} is required` : `${label}: ${i.message}`;
    });
    throw new UsageError(`${problems.join("; ")}\nusage: npm run cli -- ${cmd.usage}`);
  }
  return { cmd, input: checked.data };
}

function knownKeys(schema: z.ZodType): string[] {
  return "shape" in schema ? Object.keys(schema.shape as object) : [];
}

/** `--amount -5.00`: node's parseArgs takes "-5.00" for an option; pass it as `--amount=-5.00`. */
function joinNegativeValues(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith("--") ? args[i].slice(2) : undefined;
    const next = args[i + 1];
    if (name && options?.[name]?.type === "string" && next !== undefined && /^-[^-]/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i++;
    } else out.push(args[i]);
  }
  return out;
}
