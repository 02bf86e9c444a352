import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../lib/testing/app-server";

// Issue 35.5: what a person reads on the first `npm start` and the next: a
// few lines, then the banner (within 80 columns), and no list of migrations
// or route table unless LOG_LEVEL=debug asks for them.

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-first-start-"));
fs.chmodSync(scratch, 0o755); // as root, PostgreSQL runs as "postgres" and must enter it
let child: ChildProcess | undefined;

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** `npm start` as an operator runs it the first time: no secrets, no admin password, a new DATA_DIR. */
async function startOnce(dataDir: string, port: number): Promise<string> {
  const { DATABASE_URL: _d, SECRET_KEY: _s, NEXTAUTH_SECRET: _n, ADMIN_PASSWORD: _a, ...env } = process.env;
  let output = "";
  child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "info", LOG_FORMAT: "pretty" },
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 150_000;
  while (
    !(await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const c = child;
  c.kill("SIGTERM");
  await new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)));
  return output;
}

const bannerOf = (output: string) => output.slice(output.indexOf("╔"), output.indexOf("╝") + 1).split("\n");

describe("issue 35.5: the first start", () => {
  it("issue 35.5: the first start prints at most 20 lines before its banner, names no migration, fits 80 columns and says NEXTAUTH_SECRET signs sessions; the second start's banner says how to reset a lost admin password", async () => {
    const dataDir = path.join(scratch, "data");
    fs.mkdirSync(dataDir, { mode: 0o755 });
    const port = await freePort();
    const first = await startOnce(dataDir, port);
    const before = first.slice(0, first.indexOf("╔")).split("\n").filter(Boolean);
    expect(before.length, first).toBeLessThanOrEqual(20);
    expect(first).not.toMatch(/\d{14}_\w+/); // a migration's name
    const banner = bannerOf(first);
    expect(banner.join("\n")).toMatch(/Admin password:\s+\S+\s+\(change it at the first sign-in\)/);
    for (const line of banner) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(first).toMatch(/NEXTAUTH_SECRET was not set: generated one into \S+nextauth-secret\. It signs the admin console's sessions/);
    expect(first).not.toMatch(/NEXTAUTH_SECRET.*without it encrypted data cannot be read/);

    const second = bannerOf(await startOnce(dataDir, port));
    for (const line of second) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(second.join("\n")).toMatch(/Lost password\?\s+npm run cli -- admin:password --email E --password-stdin/);
    expect(second.join("\n")).not.toMatch(/Admin password:/);
  }, 300_000);

  it("issue 35.5: a build that start makes shows Next's output (its route table) only with LOG_LEVEL=debug, or when it fails", () => {
    // A stand-in for Next's command (a third party) in a scratch checkout: a hundred lines, then a build id.
    const root = path.join(scratch, "checkout");
    fs.mkdirSync(path.join(root, "node_modules/next/dist/bin"), { recursive: true });
    fs.writeFileSync(
      path.join(root, "node_modules/next/dist/bin/next"),
      `for (let i = 0; i < 100; i++) console.log("Route /page-" + i);
       if (process.env.FAIL_BUILD) { console.error("Type error in app/page.tsx"); process.exit(1); }
       require("fs").mkdirSync(".next", { recursive: true });
       require("fs").writeFileSync(".next/BUILD_ID", String(Date.now()));`,
    );
    const build = (env: Record<string, string>) => {
      fs.rmSync(path.join(root, ".next"), { recursive: true, force: true });
      const script = `const { ensureBuild } = await import(${JSON.stringify(path.resolve("lib/ops/ensure-build.ts"))}); try { ensureBuild(${JSON.stringify(root)}); } catch (e) { console.error(String(e)); process.exit(1); }`;
      const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        encoding: "utf8",
        env: { ...process.env, LOG_FORMAT: "json", NEXT_DIST_DIR: ".next", ...env },
      });
      return { status: r.status, out: r.stdout + r.stderr };
    };
    const quiet = build({ LOG_LEVEL: "info" });
    expect(quiet.status, quiet.out).toBe(0);
    expect(quiet.out).toContain("no build found: building");
    expect(quiet.out).not.toContain("Route /page-");
    const debug = build({ LOG_LEVEL: "debug" });
    expect(debug.out.match(/Route \/page-/g)).toHaveLength(100);
    const failed = build({ LOG_LEVEL: "info", FAIL_BUILD: "1" });
    expect(failed.status).toBe(1);
    expect(failed.out).toContain("Route /page-99");
    expect(failed.out).toContain("Type error in app/page.tsx");
  });
});
