import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../lib/testing/app-server";
import { useTestDatabase } from "../lib/testing/test-database";

// Decision 0106: the server runs a build of scripts/server.ts (scripts/server-launch.mjs,
// as `npm start` runs it), not tsx: no loader thread, no esbuild service, no source maps.

const CACHE = path.resolve(import.meta.dirname, "../node_modules/.cache/server");
const manifest = () =>
  JSON.parse(fs.readFileSync(path.join(CACHE, "current.json"), "utf8")) as { dir: string; inputs: Record<string, string> };
const childrenOf = (pid: number) => spawnSync("ps", ["--ppid", String(pid), "-o", "args="], { encoding: "utf8" }).stdout.trim();

describe("the built server (decision 0106)", () => {
  let url: string;
  const servers: AppServer[] = [];
  beforeAll(async () => {
    url = await useTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("decision 0106: serves from one built file made from scripts/server.ts and the code it imports, with no child process", async () => {
    servers.push(await startAppServer(url));
    const { dir, inputs } = manifest();
    expect(Object.keys(inputs)).toEqual(
      expect.arrayContaining(["scripts/server.ts", "lib/ops/http-server.ts", "scripts/lib/run-built.mjs"]),
    );
    // One file, loaded at start: a later build removing this one cannot break a running server.
    expect(fs.readdirSync(path.join(CACHE, dir)).sort()).toEqual(["server.mjs", "server.mjs.map"]);
    expect((await fetch(`${servers[0].baseUrl}/api/health/ready`)).status).toBe(200);
    // tsx keeps an esbuild service process for its loader; the build stops its own.
    expect(childrenOf(servers[0].pid)).toBe("");
    expect(fs.readFileSync(`/proc/${servers[0].pid}/cmdline`, "utf8").split("\0")).not.toContain("tsx");
  }, 120_000);

  it("decision 0106: the build is reused while its files are unchanged, and made again when one changed", async () => {
    servers.push(await startAppServer(url));
    const before = manifest();
    servers.push(await startAppServer(url));
    expect(manifest().dir).toBe(before.dir);
    fs.writeFileSync(
      path.join(CACHE, "current.json"),
      JSON.stringify({ ...before, inputs: { ...before.inputs, "scripts/server.ts": "0:0" } }),
    );
    const rebuilt = await startAppServer(url);
    servers.push(rebuilt);
    expect(manifest().dir).not.toBe(before.dir);
    expect((await fetch(`${rebuilt.baseUrl}/api/health/ready`)).status).toBe(200);
    expect(childrenOf(rebuilt.pid)).toBe(""); // the build's esbuild service was stopped
  }, 120_000);
});
