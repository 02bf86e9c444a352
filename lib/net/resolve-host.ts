import { promises as dnsPromises } from "node:dns";
import fs from "node:fs";
import net from "node:net";
import pLimit from "p-limit";
import { env } from "../config/env";

// Issue 22.3, docs/decisions/0029-host-names-resolved-off-the-thread-pool.md:
// the one place a host name becomes addresses (callbacks, catalogue webhooks,
// upstream base URLs). dns.lookup runs getaddrinfo on libuv's 4-thread pool,
// without a timeout: a nameserver that never answers held those threads, and
// with them the gzip of catalogue pages, file reads and sign-in scrypt. Here
// names go to c-ares (dns.promises.Resolver: non-blocking sockets on the event
// loop, no thread), under a 2 s deadline and a bounded number of look-ups at
// once. What getaddrinfo gave besides DNS is kept: IP literals need no look-up,
// /etc/hosts is read first (as nsswitch's "files dns" does), `localhost` is
// loopback (RFC 6761), and both A and AAAA are asked for.

export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** The most a caller waits for a name, queueing included. */
export const DNS_TIMEOUT_MS = 2000;
/** Look-ups in flight per process; more wait their turn (within their deadline). */
export const MAX_CONCURRENT_LOOKUPS = 32;

/** A name that gave no address: `ETIMEOUT` (no answer in time) or `ENOTFOUND` (no such name, no A/AAAA, or a nameserver error). */
export class HostResolutionError extends Error {
  constructor(readonly code: "ETIMEOUT" | "ENOTFOUND") {
    super(code === "ETIMEOUT" ? `host name did not resolve within ${DNS_TIMEOUT_MS} ms` : "host name does not resolve");
    this.name = "HostResolutionError";
  }
}

const limit = pLimit(MAX_CONCURRENT_LOOKUPS);

/** The addresses of `hostname` (IPv4 first), or a HostResolutionError within DNS_TIMEOUT_MS. */
export async function resolveHost(hostname: string): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  const family = net.isIP(host);
  if (family) return [{ address: host, family: family }];
  const name = host.toLowerCase().replace(/\.$/, "");
  const fromFile = hostsFile().get(name);
  if (fromFile) return fromFile;
  if (name === "localhost" || name.endsWith(".localhost"))
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  if (!name) throw new HostResolutionError("ENOTFOUND");
  return queueLookup(name);
}

/**
 * Waits for a free slot, then asks. The deadline runs from the call, not from
 * the slot: a flood of look-ups makes callers fail after 2 s, never wait longer.
 */
function queueLookup(name: string): Promise<ResolvedAddress[]> {
  const deadline = Date.now() + DNS_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    let started = false;
    const queued = setTimeout(() => started || reject(new HostResolutionError("ETIMEOUT")), DNS_TIMEOUT_MS);
    void limit(async () => {
      if (Date.now() >= deadline) return; // the caller has had its answer
      started = true;
      clearTimeout(queued);
      await askNameserver(name, deadline).then(resolve, reject);
    });
  });
}

/**
 * A and AAAA at once. Until the deadline, the answers that came are used (a
 * nameserver that drops AAAA queries costs the wait, not the name).
 */
function askNameserver(name: string, deadline: number): Promise<ResolvedAddress[]> {
  const r = resolver();
  return new Promise((resolve, reject) => {
    const found: ResolvedAddress[][] = [[], []];
    let pending = 2;
    let timedOut = false;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const all = [...found[0], ...found[1]];
      if (all.length) resolve(all);
      else reject(new HostResolutionError(timedOut ? "ETIMEOUT" : "ENOTFOUND"));
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        finish();
      },
      Math.max(0, deadline - Date.now()),
    );
    // c-ares adapts its per-try timeout to the server's past answers and may
    // give up well before 2 s: a timed-out question is asked again until the
    // deadline (which also re-sends a lost UDP packet).
    const ask = async (i: 0 | 1, query: () => Promise<string[]>, family: 4 | 6) => {
      for (;;) {
        try {
          found[i] = (await query()).map((address) => ({ address, family }));
          break;
        } catch (err) {
          const again = (err as NodeJS.ErrnoException).code === "ETIMEOUT";
          if (!again || settled || deadline - Date.now() < 50) {
            timedOut ||= again;
            break;
          }
        }
      }
      if (--pending === 0) finish();
    };
    void ask(0, () => r.resolve4(name), 4);
    void ask(1, () => r.resolve6(name), 6);
  });
}

let current: { key: string; resolver: dnsPromises.Resolver } | undefined;

/**
 * One c-ares channel per process, made again when DNS_SERVERS changes (tests
 * switch it). Unset, c-ares reads /etc/resolv.conf's nameservers. It tries
 * each nameserver once; their per-try timeouts share the 2 s, so a dead first
 * nameserver still leaves time for the next.
 */
function resolver(): dnsPromises.Resolver {
  const servers = env().DNS_SERVERS;
  const key = servers?.join(",") ?? "";
  if (current?.key === key) return current.resolver;
  const count = servers?.length ?? new dnsPromises.Resolver().getServers().length;
  const r = new dnsPromises.Resolver({ timeout: Math.max(250, Math.floor(DNS_TIMEOUT_MS / Math.max(1, count))), tries: 1 });
  if (servers) r.setServers(servers);
  current = { key, resolver: r };
  return r;
}

let hosts: { readAt: number; names: Map<string, ResolvedAddress[]> } | undefined;
const HOSTS_FILE = "/etc/hosts";
const HOSTS_REREAD_MS = 5000;

/**
 * /etc/hosts, name → addresses in file order, read again at most every 5 s.
 * Read synchronously: a small local file takes microseconds, and a read on
 * the thread pool is what this module avoids. No file, no entries.
 */
function hostsFile(): Map<string, ResolvedAddress[]> {
  if (hosts && Date.now() - hosts.readAt < HOSTS_REREAD_MS) return hosts.names;
  let text = "";
  try {
    text = fs.readFileSync(HOSTS_FILE, "utf8");
  } catch {
    // no hosts file (some containers): DNS only
  }
  const names = new Map<string, ResolvedAddress[]>();
  for (const line of text.split("\n")) {
    const [address, ...aliases] = line.replace(/#.*/, "").trim().split(/\s+/);
    const family = net.isIP(address ?? "");
    if (!family) continue; // blank, comment, or a scoped address (fe80::1%lo0) a socket cannot take as is
    for (const alias of aliases) {
      const list = names.get(alias.toLowerCase()) ?? [];
      if (!list.some((a) => a.address === address)) list.push({ address, family: family });
      names.set(alias.toLowerCase(), list);
    }
  }
  hosts = { readAt: Date.now(), names };
  return names;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/** The answers of the family a socket asks its `lookup` for (4, 6, "IPv4", "IPv6"; unset or 0: all). */
export function ofFamily(all: ResolvedAddress[], family: number | string | undefined): ResolvedAddress[] {
  const wanted = family === "IPv4" ? 4 : family === "IPv6" ? 6 : Number(family) || 0;
  return wanted ? all.filter((a) => a.family === wanted) : all;
}

/** A `lookup` option of net/http/undici connections (which would otherwise call dns.lookup) from a function giving a host's addresses. */
export function lookupFrom(addressesOf: (hostname: string) => Promise<ResolvedAddress[]>) {
  return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    addressesOf(hostname).then(
      (all) => {
        const addresses = ofFamily(all, options.family);
        if (!addresses.length) return callback(new HostResolutionError("ENOTFOUND"), "", 0);
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}

/** resolveHost as the `lookup` option. */
export const lookupViaResolver = lookupFrom(resolveHost);
