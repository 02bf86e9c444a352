import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent } from "undici";
import { appError } from "../errors";
import { lookupFrom, resolveHost, type ResolvedAddress } from "../net/resolve-host";
import { allowPrivateNetworks } from "./callback-config";

// D29: where callbacks may go. Only public unicast addresses, unless
// CALLBACK_ALLOW_PRIVATE_NETWORKS=true, which adds loopback and private
// ranges. Link-local (which holds 169.254.169.254), multicast, unspecified,
// broadcast, reserved, NAT64/6to4/Teredo, the deprecated IPv4-compatible IPv6
// range ::/96 and the cloud metadata addresses are refused always: the switch
// is for closed test networks, and a metadata service hands out credentials.
// IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries.

const PRIVATE_WHEN_ALLOWED = new Set(["loopback", "private", "uniqueLocal", "carrierGradeNat"]);
// Instance metadata services. Most sit at 169.254.169.254 (AWS, GCP, Azure,
// OpenStack, Oracle, DigitalOcean, Hetzner), already link-local; these are the
// ones in ranges the switch would open, or in public space.
const METADATA = new Set([
  "169.254.169.254", // most clouds
  "169.254.170.2", // AWS ECS task metadata and credentials
  "fd00:ec2::254", // AWS IMDS over IPv6
  "100.100.100.200", // Alibaba Cloud (inside CGNAT 100.64.0.0/10)
  "168.63.129.16", // Azure WireServer (public address space)
  "192.0.0.192", // Oracle Cloud (legacy)
]);
// Names the clouds resolve to their metadata service inside an instance;
// refused by name as well, whatever a resolver answers for them.
const METADATA_HOSTS = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
]);
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** Why an address is refused, or null when a callback may connect to it. */
export function restrictedReason(address: string, allowPrivate = allowPrivateNetworks()): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  const ip = ipaddr.process(address); // unwraps IPv4-mapped IPv6
  if (METADATA.has(ip.toNormalizedString()) || METADATA.has(ip.toString())) return "cloud metadata address";
  const range = ip.range();
  // ::1 and :: are in ::/96 too; they keep their own answers below.
  if (ip.kind() === "ipv6" && range === "unicast" && (ip as ipaddr.IPv6).match(IPV4_COMPATIBLE)) return "IPv4-compatible IPv6 address";
  if (range === "unicast") return null;
  if (allowPrivate && PRIVATE_WHEN_ALLOWED.has(range)) return null;
  return `${range} address`;
}

/** A host name that names a cloud metadata service (refused before any lookup). */
export function isMetadataHost(hostname: string): boolean {
  return METADATA_HOSTS.has(hostname.toLowerCase().replace(/\.$/, ""));
}

/** Host name → addresses. Replaceable in tests (a resolver that lies, as DNS rebinding would). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;
/** Issue 22.3: c-ares under a 2 s deadline, never dns.lookup on the thread pool (lib/net/resolve-host.ts). */
export const systemResolver: Resolver = resolveHost;

/** The URL's host without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * D29 check at order creation (and when a catalogue webhook is registered,
 * `field` naming it in the message): http or https, and every address the host
 * resolves to is allowed. Throws 400 bad_request, also when the host does not
 * resolve within 2 s (issue 22.3): nothing is written. Connect time checks again
 * (guardedLookup), so a host that changes its answer later gains nothing.
 */
export async function assertCallbackUrlAllowed(url: string, resolve: Resolver = systemResolver, field = "callback_url"): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw appError("bad_request", `${field} is not a valid URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw appError("bad_request", `${field} must use http or https`);
  }
  await assertHostAllowed(bareHost(parsed), field, resolve, field === "callback_url" ? "callback host" : field);
}

/**
 * The add-time half of D29 for any host we will connect to (a callback's, a
 * webhook's, the Telegram API base's, an SMTP server's): every address the
 * name resolves to is allowed. 400 bad_request otherwise, nothing written.
 */
export async function assertHostAllowed(host: string, field: string, resolve: Resolver = systemResolver, hostWord = `${field} host`) {
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else if (isMetadataHost(host)) throw appError("bad_request", `${field} points to a restricted network address`);
  else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch {
      addresses = [];
    }
    // One message for "no such name" and "no answer in time": the client can do the same about both.
    if (!addresses.length) throw appError("bad_request", `${hostWord} did not resolve`);
  }
  for (const address of addresses) {
    if (restrictedReason(address)) throw appError("bad_request", `${field} points to a restricted network address`);
  }
}

export class RestrictedAddressError extends Error {
  readonly code = "ERESTRICTED";
  constructor(reason: string) {
    super(`refused to connect: ${reason}`);
  }
}

/**
 * A `lookup` for http.request/https.request and undici: resolves once, refuses
 * the connection if any answer is restricted, and hands the socket exactly the
 * addresses it checked. The socket never resolves the name again, so DNS
 * rebinding between the check and the connect cannot get through.
 */
export function guardedLookup(resolve: Resolver = systemResolver) {
  return lookupFrom((hostname) => checkedAddresses(hostname, resolve));
}

/**
 * The connect-time half of D29: the host's addresses, each allowed, or a
 * RestrictedAddressError / HostResolutionError. An IP literal is checked as
 * it is. A caller that connects by itself (SMTP, lib/alerts/channels/email.ts) connects
 * to one of these addresses, never to the name, so nothing resolves it again.
 */
export async function checkedAddresses(hostname: string, resolve: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  const family = net.isIP(host);
  if (!family && isMetadataHost(host)) throw new RestrictedAddressError("cloud metadata address");
  const all = family ? [{ address: host, family }] : await resolve(host);
  for (const a of all) {
    const reason = restrictedReason(a.address);
    if (reason) throw new RestrictedAddressError(reason);
  }
  return all;
}

let dispatcher: Agent | undefined;
/**
 * fetch()'s dispatcher for a host whose address the policy decides (the
 * Telegram Bot API base): connections resolve through guardedLookup. Node
 * does not call `lookup` for an IP literal: the caller checks one first.
 */
export function guardedDispatcher(): Agent {
  dispatcher ??= new Agent({ connect: { lookup: guardedLookup() } });
  return dispatcher;
}
