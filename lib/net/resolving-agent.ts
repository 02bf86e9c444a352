import { Agent } from "undici";
import { lookupViaResolver } from "./resolve-host";

// Issue 22.3: fetch() connects through net.connect, which resolves host names
// with dns.lookup on libuv's thread pool. Requests to an upstream supplier go
// through this dispatcher instead, whose connections resolve with
// lib/net/resolve-host.ts (c-ares, 2 s, bounded). IP literals need no look-up.

let agent: Agent | undefined;

/** The dispatcher for fetch() calls to host names we do not control (upstream base URLs). */
export function resolvingAgent(): Agent {
  agent ??= new Agent({ connect: { lookup: lookupViaResolver } });
  return agent;
}
