import { env } from "../config/env";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { log } from "../log";

const SOURCE_ROOTS = [
  "app",
  "components",
  "lib",
  "next.config.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "proxy.ts",
  "instrumentation.ts",
];
const SKIP = new Set(["node_modules", "generated"]);

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p)) {
    if (SKIP.has(entry) || entry.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/**
 * Runs `next build` when there is no build, a source file is newer than it, or
 * it lacks a build-time flag asked for (`ENABLE_BENCH_ROUTES`, decision 0081:
 * the test run builds the benchmark baseline route in; a fresh `npm start`
 * never does). A build with the route is kept by a start that does not ask for
 * it, since the route still answers 404 unless the server runs with the flag:
 * a start inside the test run must not rebuild the build other tests serve.
 */
export function ensureBuild(root = process.cwd(), flags: { ENABLE_BENCH_ROUTES?: "1" } = {}): void {
  const dist = path.join(root, env().NEXT_DIST_DIR);
  const buildId = path.join(dist, "BUILD_ID");
  const flagsFile = path.join(dist, "build-flags.json");
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCE_ROOTS.map((p) => newestMtime(path.join(root, p))));
  const builtWith = JSON.parse(fs.existsSync(flagsFile) ? fs.readFileSync(flagsFile, "utf8") : "{}") as typeof flags;
  const hasFlags = flags.ENABLE_BENCH_ROUTES !== "1" || builtWith.ENABLE_BENCH_ROUTES === "1";
  if (builtAt > sourcesAt && hasFlags) return;
  log.info(builtAt ? "sources or build flags changed since the last build: building" : "no build found: building (about a minute)");
  const buildEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  delete buildEnv.ENABLE_BENCH_ROUTES;
  // Issue 35.5: Next's route table and progress are a hundred lines a first
  // start would scroll the banner's one-time credentials away with; they are
  // shown with LOG_LEVEL=debug, and in full when the build fails.
  const verbose = log.isLevelEnabled("debug");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: verbose ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...buildEnv, ...flags },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) {
    if (!verbose) process.stderr.write(`${result.stdout?.toString() ?? ""}${result.stderr?.toString() ?? ""}`);
    throw new Error("next build failed");
  }
  fs.writeFileSync(flagsFile, JSON.stringify(flags));
}
