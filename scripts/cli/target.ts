// Which database a CLI run works on, said before and after (issue 35.5,
// decision 0082). Before: a DATA_DIR with no database in it is refused unless
// --init asks for one, because a mistyped or missing DATA_DIR used to get a
// fresh empty database in ./.data, and `user:invite` then printed a link to a
// server that did not exist. After: every result names the data directory (or
// the external database, without its user and password) and the base URL its
// links are made under, so an operator sees at once which site they changed.
import fs from "node:fs";
import path from "node:path";
import { UsageError } from "./command";

/** The flag that lets a run create the embedded database in an empty DATA_DIR. */
export const INIT_FLAG = "--init";

/** `argv` without --init, and whether it was there (any position: it is not a command's option). */
export function takeInitFlag(argv: string[]): { argv: string[]; init: boolean } {
  return { argv: argv.filter((a) => a !== INIT_FLAG), init: argv.includes(INIT_FLAG) };
}

/** Throws (exit 2, nothing written) when the embedded database would be created by this run. */
export function refuseEmptyDataDir(dir: string): void {
  // PG_VERSION is the first file initdb writes that stays; "pg" may be a symlink (clusterDir, as root).
  if (fs.existsSync(path.join(dir, "pg", "PG_VERSION"))) return;
  throw new UsageError(
    `DATA_DIR ${dir} holds no database. Run the CLI with the DATA_DIR (or DATABASE_URL) the server uses, ` +
      `or pass ${INIT_FLAG} to create a new, empty database there.`,
  );
}

export interface Target {
  data_dir?: string;
  /** host:port/database of DATABASE_URL; never its user or password. */
  database?: string;
  /** SiteSettings.public_base_url: what invitation, reset and alert links start with. */
  base_url: string | null;
}

/** The `_target` field of a result; the base URL read last, so `settings:set public_base_url=…` shows its new value. */
export async function describeTarget(opts: { external: string | undefined; dataDir: string }): Promise<Target> {
  const where = opts.external ? { database: hostAndDatabase(opts.external) } : { data_dir: opts.dataDir };
  let baseUrl: string | null = null;
  try {
    const { getSettings } = await import("../../lib/settings/get-settings");
    baseUrl = (await getSettings()).publicBaseUrl;
  } catch {
    // A database a refused restore left without its settings row: the result still names where it ran.
  }
  return { ...where, base_url: baseUrl };
}

function hostAndDatabase(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}
