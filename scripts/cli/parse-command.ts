// Checks one command's arguments, before the database is touched.
import { parseArgs } from "node:util";
import type { z } from "zod";
import { SETTING_KEYS } from "../../lib/settings/update-settings";
import { commands as admins } from "./admins";
import { commands as alerts } from "./alerts";
import { commands as adminsUsers } from "./admins-users";
import { commands as audit } from "./audit";
import { commands as backup } from "./backup";
import { commands as catalog } from "./catalog";
import { commands as claims } from "./claims";
import { type Command, type Options, UsageError } from "./command";
import { commands as levels } from "./levels";
import { commands as orders } from "./orders";
import { commands as portal } from "./portal";
import { commands as sources } from "./sources";
import { commands as upstream } from "./upstream";

const COMMANDS: Record<string, Command<z.ZodType>> = {
  ...adminsUsers,
  ...admins,
  ...catalog,
  ...levels,
  ...orders,
  ...claims,
  ...upstream,
  ...sources,
  ...backup,
  ...audit,
  ...alerts,
  ...portal,
} as never;

function usage(): string {
  return ["usage: npm run cli -- <command>", ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join("\n");
}

/** Validates the arguments of one command without touching the database. */
export function parseCommand(argv: string[]) {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") throw new UsageError(usage());
  if (!Object.hasOwn(COMMANDS, name)) throw new UsageError(`unknown command ${JSON.stringify(name)}\n${usage()}`);
  const cmd = COMMANDS[name];
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
      if (i.code === "unrecognized_keys") return `unknown setting ${i.keys.join(", ")} (known: ${SETTING_KEYS.join(", ")})`;
      const key = String(i.path[0] ?? "");
      const label = cmd.positionals ? key : `--${key}`;
      return raw?.[key] === undefined ? `${label} is required` : `${label}: ${i.message}`;
    });
    throw new UsageError(`${problems.join("; ")}\nusage: npm run cli -- ${cmd.usage}`);
  }
  return { cmd, input: checked.data };
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
