// `npm start`: secrets, database (embedded unless DATABASE_URL), migrations,
// first-start seed, build when stale, then our server (scripts/server.ts) on PORT.
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureSecrets } from "../lib/config/secrets";
import { parseTrustedProxies } from "../lib/config/trusted-proxies";
import { connectDatabase } from "../lib/db/connect";
import { applyMigrations } from "../lib/db/migrate";
import { ensureBuild } from "../lib/ops/ensure-build";
import { log } from "../lib/log";
import { printBox, seedOnStart, startBanner } from "../lib/seed/seed-on-start";

const port = process.env.PORT ?? "3000";
try {
  // A bad TRUSTED_PROXIES stops start at once, before the database is touched (issue 8.5).
  parseTrustedProxies(process.env.TRUSTED_PROXIES);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
ensureSecrets();
const database = await connectDatabase();
const applied = await applyMigrations(database.url);
if (applied.length) log.info({ applied }, "migrations applied");
ensureBuild();
// After the build, so the one-time credentials are not scrolled away by its output.
try {
  printBox(startBanner(process.env.NEXTAUTH_URL ?? `http://localhost:${port}`, await seedOnStart({ embedded: database.embedded })));
} catch (err) {
  await database.stop?.();
  throw err;
}

process.env.NEXTAUTH_URL ??= `http://localhost:${port}`;
// scripts/server.ts, not `next start`: client addresses come from the socket and TRUSTED_PROXIES.
const server = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/server.ts"), "--port", port], {
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
