import fs from "node:fs";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// Issue 33.7: the compose recipe trusts only HAProxy. Docker cannot run in CI,
// so the recipe is read as compose reads it (YAML with anchors and merge
// keys): HAProxy has a fixed address on a network with a defined subnet, and
// every service that runs our server believes that address and nothing else,
// never a hop count (with "1" any peer that reaches an instance directly would
// choose its own address).

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, unknown>;
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
}
interface Compose {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string; ip_range?: string }[] } } | null>;
}

const compose = parse(fs.readFileSync("compose.yaml", "utf8"), { merge: true }) as Compose;
const inRange = (address: string, cidr: string) => ipaddr.parse(address).match(ipaddr.parseCIDR(cidr));

describe("issue 33.7: compose.yaml trusts only HAProxy's address", () => {
  it("issue 33.7: HAProxy has a fixed IPv4 address on a defined network, inside its subnet and outside the range Docker hands out", () => {
    const haproxy = compose.services.haproxy;
    expect(haproxy.image).toMatch(/^haproxy:/);
    const attached = Object.entries((haproxy.networks ?? {}) as Record<string, { ipv4_address?: string } | null>);
    expect(attached).toHaveLength(1);
    const [networkName, attachment] = attached[0];
    const address = attachment?.ipv4_address;
    expect(address && ipaddr.IPv4.isValidFourPartDecimal(address), "haproxy's ipv4_address").toBe(true);
    const [pool] = compose.networks?.[networkName]?.ipam?.config ?? [];
    expect(pool?.subnet, `network ${networkName} defines its subnet`).toBeDefined();
    expect(inRange(address!, pool.subnet!)).toBe(true);
    // Dynamic addresses come from ip_range only: a container started first cannot take HAProxy's.
    expect(pool?.ip_range).toBeDefined();
    expect(inRange(address!, pool.ip_range!)).toBe(false);
  });

  it("issue 33.7: every service built from our image has TRUSTED_PROXIES exactly HAProxy's address (no hop count) and shares its network", () => {
    const address = (compose.services.haproxy.networks as Record<string, { ipv4_address: string }>).default.ipv4_address;
    const ours = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
    expect(ours.map(([name]) => name).sort()).toEqual(["app1", "app2", "worker"]);
    for (const [name, service] of ours) {
      expect(service.environment?.TRUSTED_PROXIES, name).toBe(address);
      expect(service.networks, `${name} is on the default network, where HAProxy is`).toBeUndefined();
    }
  });
});
