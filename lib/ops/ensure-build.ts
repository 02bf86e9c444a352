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

/** Runs `next build` when there is no build or a source file is newer than it. */
export function ensureBuild(root = process.cwd()): void {
  const buildId = path.join(root, env().NEXT_DIST_DIR, "BUILD_ID");
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCE_ROOTS.map((p) => newestMtime(path.join(root, p))));
  if (builtAt > sourcesAt) return;
  log.info(builtAt ? "sources changed since the last build: building" : "no build found: building (about a minute)");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}
