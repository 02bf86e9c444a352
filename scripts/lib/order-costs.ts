// Issue 40.1: where an order's time goes, measured around one bench phase:
// PostgreSQL's CPU (the postmaster and its children), the app server's CPU
// (the process listening on the bench's port), WAL bytes and transactions,
// each divided by the orders the phase placed. Linux /proc only; a figure
// that cannot be read is null, never guessed.
import fs from "node:fs";
import os from "node:os";
import type { Client } from "pg";

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux node runs on

/** The cores this process may run on (what `taskset` left it) and the machine's count. */
export function coresInfo(): { cores: number; affinity: string | null; machine_cores: number } {
  const status = readText("/proc/self/status");
  const affinity = status?.match(/^Cpus_allowed_list:\s*(\S+)/m)?.[1] ?? null;
  return { cores: os.availableParallelism(), affinity, machine_cores: os.cpus().length };
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * utime + stime of one process, in seconds (fields 14 and 15 of /proc/PID/stat,
 * after the command's parenthesis); with `reaped`, also the children it has
 * waited for (16 and 17): a backend that exits is counted in its postmaster.
 */
function cpuSeconds(pid: number, reaped = false): number {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return 0;
  const f = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .slice(11, 15)
    .map(Number);
  return (f[0] + f[1] + (reaped ? f[2] + f[3] : 0)) / TICKS_PER_SECOND;
}

function parentOf(pid: number): number | null {
  const stat = readText(`/proc/${pid}/stat`);
  return stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) : null;
}

function allPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
}

/** The postmaster and its children (backends, walwriter, checkpointer…): PostgreSQL's CPU. */
function postgresCpu(postmasterPid: number): number {
  let sum = cpuSeconds(postmasterPid, true);
  for (const pid of allPids()) if (parentOf(pid) === postmasterPid) sum += cpuSeconds(pid);
  return sum;
}

/** The process holding the listening socket of `port` (its inode in /proc/net/tcp, then whose fd points at it). */
export function listeningPid(port: number): number | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of (readText(table) ?? "").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && cols[1].endsWith(`:${hexPort}`) && cols[3] === "0A") inodes.add(cols[9]);
    }
  }
  for (const pid of allPids()) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (inodes.has(target.slice(8, -1)) && target.startsWith("socket:[")) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}

/** The postmaster's pid: the first line of postmaster.pid in the data directory (needs a superuser or pg_read_all_settings). */
export async function postmasterPid(client: Client): Promise<number | null> {
  try {
    const { rows } = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
    const pid = Number(readText(`${rows[0].dir}/postmaster.pid`)?.split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

interface Sample {
  pgCpu: number | null;
  appCpu: number | null;
  walLsn: string;
  xacts: number;
}

export interface CostProbe {
  pgPid: number | null;
  appPid: number | null;
  client: Client;
}

export async function sample({ pgPid, appPid, client }: CostProbe): Promise<Sample> {
  const { rows } = await client.query<{ lsn: string; xacts: string }>(
    `SELECT pg_current_wal_lsn()::text AS lsn,
            (SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database)::text AS xacts`,
  );
  return {
    pgCpu: pgPid ? postgresCpu(pgPid) : null,
    appCpu: appPid ? cpuSeconds(appPid) : null,
    walLsn: rows[0].lsn,
    xacts: Number(rows[0].xacts),
  };
}

/**
 * Per order between two samples. Transactions count every statement sent
 * outside an explicit transaction (each is one round trip), across the
 * whole cluster (the caller lets the statistics arrive before sampling).
 */
export async function perOrder(probe: CostProbe, before: Sample, after: Sample, orders: number) {
  const { rows } = await probe.client.query<{ bytes: string }>("SELECT pg_wal_lsn_diff($1, $2)::text AS bytes", [
    after.walLsn,
    before.walLsn,
  ]);
  const per = (x: number) => Math.round((x / Math.max(orders, 1)) * 1e6) / 1e6;
  const ms = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round(per(a - b) * 1e6) / 1e3);
  return {
    pg_cpu_ms: ms(after.pgCpu, before.pgCpu),
    app_cpu_ms: ms(after.appCpu, before.appCpu),
    wal_bytes: Math.round(per(Number(rows[0].bytes))),
    transactions: Math.round(per(after.xacts - before.xacts) * 100) / 100,
  };
}
