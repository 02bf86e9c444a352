// `npm start`: secrets, database (embedded unless DATABASE_URL), migrations,
// first-start seed, build when stale, then `next start` on PORT.
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureSecrets } from "../lib/config/secrets";
import { connectDatabase } from "../lib/db/connect";
import { applyMigrations } from "../lib/db/migrate";
import { ensureBuild } from "../lib/ops/ensure-build";
import { log } from "../lib/log";
import { printBox, seedOnStart } from "../lib/seed/seed-on-start";

const port = process.env.PORT ?? "3000";
ensureSecrets();
const database = await connectDatabase();
const applied = await applyMigrations(database.url);
if (applied.length) log.info({ applied }, "migrations applied");
ensureBuild();
// After the build, so the one-time credentials are not scrolled away by its output.
try {
  const seeded = await seedOnStart({ embedded: database.embedded });
  const base = `http://localhost:${port}`;
  // Issue 11.2: where integrators and administrators start.
  printBox([...seeded, ...(seeded.length ? [""] : []), `Admin console:   ${base}/admin`, `API reference:   ${base}/docs`]);
} catch (err) {
  await database.stop?.();
  throw err;
}

process.env.NEXTAUTH_URL ??= `http://localhost:${port}`;
const server = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", port], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
});

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
  await database.stop?.();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
server.on("exit", (code) => void shutdown(code ?? 1));
