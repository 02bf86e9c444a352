// `npm start`: configuration, secrets, database (embedded unless DATABASE_URL),
// migrations, first-start seed, build when stale, then our server
// (scripts/server.ts) on PORT.
import { spawn } from "node:child_process";
import path from "node:path";
import { loadEnvOrExit } from "../lib/config/env";
import { dataDir } from "../lib/config/paths";
import { ensureSecrets } from "../lib/crypto/secrets";
import { warnIfSuperuser } from "../lib/db/app-role";
import { connectDatabase } from "../lib/db/connect";
import { applyMigrations } from "../lib/db/migrate";
import { moveUploadsIntoDatabase } from "../lib/catalog/move-uploads-into-database";
import { ensureBuild } from "../lib/ops/ensure-build";
import { assertDataDirUsable, assertPortFree, exitOnStartupError } from "../lib/ops/startup-errors";
import { onStopSignals } from "../lib/ops/stop-signals";
import { log } from "../lib/log";
import { printBox, seedOnStart, startBanner } from "../lib/seed/seed-on-start";

// Issue 10.5: every variable is checked here, before the database is touched.
const config = loadEnvOrExit("start");
const port = String(config.PORT);
let database: Awaited<ReturnType<typeof connectDatabase>> | undefined;
try {
  await assertPortFree(config.PORT); // before minutes of build and migrations
  await assertDataDirUsable(dataDir());
  ensureSecrets();
  database = await connectDatabase();
  if (!database.embedded) await warnIfSuperuser(database.url);
  const applied = await applyMigrations(database.url);
  // Issue 35.5: the count; the list (dozens of names on a first start) with LOG_LEVEL=debug.
  if (applied.length) log.info({ migrations: applied.length }, "migrations applied");
  if (applied.length) log.debug({ applied }, "migrations applied");
  const uploads = await moveUploadsIntoDatabase(); // issue 27.1: files from before decision 0044
  if (uploads.moved.length || uploads.skipped.length) log.info(uploads, "DATA_DIR/uploads moved into the database");
  // A benchmark server is built with its baseline route (decision 0081); any other is built without it.
  ensureBuild(process.cwd(), config.ENABLE_BENCH_ROUTES === "1" ? { ENABLE_BENCH_ROUTES: "1" } : {});
  // After the build, so the one-time credentials are not scrolled away by its output.
  const baseUrl = config.NEXTAUTH_URL ?? `http://localhost:${port}`;
  printBox(startBanner(baseUrl, await seedOnStart({ embedded: database.embedded, baseUrl })));
} catch (err) {
  await database?.stop?.().catch(() => undefined);
  // Issue 10.6: one line saying what is wrong and what to do, for the failures a person can fix.
  exitOnStartupError("start", err);
}
const db = database;

process.env.NEXTAUTH_URL ??= `http://localhost:${port}`;
// scripts/server.ts, not `next start`: client addresses come from the socket and TRUSTED_PROXIES.
// From a build of our own code, not through tsx (decision 0106: about 100 MB less RSS).
const server = spawn(process.execPath, [path.resolve("scripts/server-launch.mjs"), "--port", port], {
  stdio: "inherit",
  // MALLOC_ARENA_MAX (decision 0060): glibc gives each thread that allocates
  // (libuv's pool compressing and hashing) its own arena, kept after use; two
  // keep the server's RSS near its V8 heap (bench:catalog-scale: 611-680 MB → 398 MB,
  // same pages/s). An operator's own value is kept.
  env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" },
});

// Issue 10.4: the server drains first (it exits when done), then the embedded
// PostgreSQL stops cleanly (a checkpoint, no crash recovery at the next start).
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
  await db.stop?.();
  process.exit(code);
}
onStopSignals("start", () => shutdown(0));
// A second signal exits at once (onStopSignals): take the server down with us;
// PostgreSQL got its own stop request and finishes that by itself.
process.once("exit", () => {
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  void db.stop?.(); // sends PostgreSQL its (fast, clean) stop request synchronously; a no-op once stopped
});
server.on("exit", (code) => {
  if (code === 0 && !stopping) log.warn("server exited: stopping");
  void shutdown(code ?? 1);
});
