import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCliOutput, runCli, type CliResult } from "../lib/testing/run-cli";

// Issue 28.4 (decision 0048): `npm run cli` runs scripts/cli-launch.mjs, which
// runs a build of scripts/cli.ts kept under node_modules/.cache/cli and made
// again whenever a file it was made from changes. It must answer exactly as
// scripts/cli.ts through tsx does (lib/testing/run-cli), database included.

const ROOT = path.resolve(import.meta.dirname, "..");
const MANIFEST = path.join(ROOT, "node_modules/.cache/cli/current.json");

function launch(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/cli-launch.mjs", ...args], {
      cwd: ROOT,
      env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code, stdout, stderr, ...parseCliOutput(stdout) });
    });
  });
}

const buildDir = () => (JSON.parse(fs.readFileSync(MANIFEST, "utf8")) as { dir: string }).dir;

describe("the built CLI (issue 28.4)", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-cli-launch-"));
  fs.chmodSync(dataDir, 0o755); // as root, the embedded server runs as "postgres"
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("issue 28.4: help answers as scripts/cli.ts through tsx does: the same usage, exit 2", async () => {
    const [built, tsx] = await Promise.all([launch(["help"]), runCli(["help"], {})]);
    expect(built.code).toBe(2);
    expect(built.stderr).toBe(tsx.stderr);
    expect(built.stderr).toMatch(/points:reconcile/);
  });

  it("issue 28.4: a database command runs from the build: migrations on a new DATA_DIR, then the command", async () => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: undefined, SECRET_KEY: undefined, NEXTAUTH_SECRET: undefined };
    const first = await launch(["points:reconcile", "--init"], env); // issue 35.5: a new DATA_DIR only with --init
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toEqual({ ok: true, users_checked: 0, mismatches: [], payments_checked: 0, payment_mismatches: [] });
    const created = await launch(["user:create", "--email", "launch@example.com", "--points", "5.00"], env);
    expect(created.code, created.stderr).toBe(0);
    expect((await runCli(["points:reconcile"], env)).json).toEqual({
      ok: true,
      users_checked: 1,
      mismatches: [],
      payments_checked: 0,
      payment_mismatches: [],
    });
  }, 180_000);

  it("issue 28.4: the build is reused while its files are unchanged, and made again when one changed", async () => {
    expect((await launch(["help"])).code).toBe(2);
    const before = buildDir();
    expect((await launch(["help"])).code).toBe(2);
    expect(buildDir()).toBe(before);
    // As if scripts/cli.ts had been edited since the build: its recorded size and time no longer match.
    const manifest = JSON.parse(fs.readFileSync(MANIFEST, "utf8")) as { inputs: Record<string, string> };
    manifest.inputs["scripts/cli.ts"] = "0:0";
    fs.writeFileSync(MANIFEST, JSON.stringify(manifest));
    const rebuilt = await launch(["help"]);
    expect(rebuilt.code).toBe(2);
    expect(rebuilt.stderr).toMatch(/points:reconcile/);
    expect(buildDir()).not.toBe(before);
    expect(fs.existsSync(path.join(ROOT, "node_modules/.cache/cli", buildDir(), "cli.mjs"))).toBe(true);
  }, 60_000);
});
