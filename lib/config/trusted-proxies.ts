import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";

/**
 * Issue 8.5, TRUSTED_PROXIES: which peers may tell us the client's address in
 * X-Forwarded-For. Given (address, hop index counted from the socket), true
 * when that hop is a proxy of ours. proxy-addr walks the chain from the socket
 * leftwards and stops at the first untrusted hop: the right-most address no
 * proxy of ours vouches for.
 *
 * - unset, empty or "none": nobody; the socket's address is the client;
 * - a hop count "1", "2"…: that many proxies in front (X-Forwarded-For entries
 *   beyond them are the client's own claims and are ignored);
 * - a comma-separated list of IP addresses and CIDR ranges
 *   ("10.0.0.0/8, 127.0.0.1/32", also "loopback", "linklocal", "uniquelocal"):
 *   peers in these ranges are proxies.
 *
 * Anything else throws one line naming the bad entry, so start stops on it.
 */
export type TrustProxy = (address: string, hop: number) => boolean;

const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);
const MAX_HOPS = 32;

export function parseTrustedProxies(value: string | undefined): TrustProxy {
  const text = (value ?? "").trim();
  if (text === "" || text === "none") return () => false;
  if (/^[0-9]+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw invalid(`${text} hops is more than ${MAX_HOPS}`);
    return (_address, hop) => hop < hops;
  }
  const entries = text.split(",").map((e) => e.trim());
  for (const entry of entries) {
    if (!isRange(entry)) throw invalid(`"${entry.slice(0, 60)}" is not a hop count, an IP address or a CIDR range`);
  }
  return proxyaddr.compile(entries);
}

/**
 * Issue 33.7: a hop count trusts the last X-Forwarded-For entry of ANY peer,
 * so a client that reaches an instance past the proxy (another container on
 * its network, a host on its subnet) chooses its own address for rate limits,
 * sign-in throttling and the audit log. Still accepted (a proxy whose address
 * changes), but the server says so at start. Null when there is nothing to say.
 */
export function trustedProxiesWarning(value: string | undefined): string | null {
  const text = (value ?? "").trim();
  if (!/^[0-9]+$/.test(text) || Number(text) === 0) return null;
  return `TRUSTED_PROXIES=${text} is a hop count: any client that reaches this server directly can choose its address with X-Forwarded-For; name the proxies' addresses instead (e.g. TRUSTED_PROXIES=10.0.0.5)`;
}

function isRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, ...more] = entry.split("/");
  if (more.length || !ipaddr.isValid(address) || !/^(?:\d+\.\d+\.\d+\.\d+|.*:.*)$/.test(address)) return false;
  if (bits === undefined) return true;
  const max = ipaddr.parse(address).kind() === "ipv4" ? 32 : 128;
  return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= max;
}

function invalid(reason: string): Error {
  return new Error(`TRUSTED_PROXIES: ${reason} (use none, a hop count like 1, or a comma-separated list of CIDR ranges)`);
}
