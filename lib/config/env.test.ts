import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, TEST_VARIABLES } from "./env";

// Issue 10 item 5 (docs/decisions/0017): one zod schema of every environment
// variable, checked at start by the server, the CLI and the worker.

function run(script: string, args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: process.cwd(),
    encoding: "utf8",
    timeout: 60_000,
    env: { ...rest, DATA_DIR: "/nonexistent/never-created", ...env },
  });
}

describe("issue 10.5: one typed configuration", () => {
  const cases: [string, string, RegExp][] = [
    ["UPSTREAM_POLL_SCHEDULE", "2,soon,10", /UPSTREAM_POLL_SCHEDULE must be comma-separated seconds/],
    ["WORKER_CONCURRENCY", "0", /WORKER_CONCURRENCY must be a whole number from 1 to 64/],
    ["LOG_LEVEL", "loud", /LOG_LEVEL must be one of fatal, error, warn/],
    ["TRUSTED_PROXIES", "10.0.0.0/99", /TRUSTED_PROXIES: "10.0.0.0\/99" is not a hop count/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\//],
  ];
  for (const [program, script, args] of [
    ["server", "scripts/server.ts", ["--port", "0"]],
    ["cli", "scripts/cli.ts", ["points:reconcile"]],
    ["worker", "scripts/worker.ts", []],
    ["start", "scripts/start.ts", []],
  ] as const) {
    it(`issue 10.5: a bad value stops ${program} at once with one line naming the variable, exit 2, no stack trace`, () => {
      for (const [name, value, expected] of program === "server" ? cases : cases.slice(0, 2)) {
        const r = run(script, [...args], { [name]: value });
        expect(r.status, `${name}=${value}: ${r.stderr}`).toBe(2);
        const lines = r.stderr
          .trim()
          .split("\n")
          .filter((l) => !/^npm warn/.test(l));
        expect(lines, r.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^${program}: configuration error: `));
        expect(lines[0]).toMatch(expected);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    }, 120_000);
  }

  it("issue 10.5: a secret's bad value is never echoed", () => {
    const r = run("scripts/server.ts", ["--port", "0"], { NEXTAUTH_URL: "ftp://s3cr3t-value" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/NEXTAUTH_URL must be a URL starting with http:\/\/ or https:\/\//);
    expect(r.stderr).not.toContain("s3cr3t-value");
  });

  // Issue 34.4 moved the test variables to CONTRIBUTING.md: the README is for operators.
  const tableVariables = (file: string, heading: string) => {
    const text = fs.readFileSync(file, "utf8");
    const start = text.indexOf(heading);
    expect(start, `${file} has "${heading}"`).toBeGreaterThanOrEqual(0);
    const section = text.slice(start, text.indexOf("\n#", start + heading.length));
    return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]).sort();
  };

  it("issue 10.5: the README's configuration table lists exactly the schema's variables", () => {
    expect(tableVariables("README.md", "## Configuration")).toEqual([...ENV_VARIABLES].sort());
  });

  it("issue 10.5: CONTRIBUTING.md's table of test variables lists exactly the test variables", () => {
    expect(tableVariables("CONTRIBUTING.md", "### Variables read only by tests")).toEqual([...TEST_VARIABLES].sort());
  });

  it("issue 10.5: no module outside lib/config reads process.env for a configured variable", () => {
    const files = spawnSync("git", ["ls-files", "lib", "app", "scripts", "instrumentation.ts"], { encoding: "utf8" })
      .stdout.split("\n")
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.ts$|testutil|^lib\/testing\/|^lib\/config\/env\.ts$|^lib\/generated\//.test(f));
    const offenders: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      for (const name of ENV_VARIABLES) {
        // Reads only: entry points may still set a default before parsing (cli.ts: LOG_LEVEL ??=) or hand values to a child.
        const reads = [...text.matchAll(new RegExp(`(?<!delete )process\\.env\\.${name}\\b(?!\\s*(\\?\\?=|=[^=]))`, "g"))];
        if (reads.length) offenders.push(`${file}: ${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
