// The ops CLI: `npm run cli -- <command> [options]` (README "CLI").
// Each command prints ONE JSON object as the last line of stdout, or exits
// non-zero with a one-line reason on stderr: 2 for bad input (nothing was
// written), 1 when the operation was refused or failed. Same configuration as
// the server: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (joined
// when running, started and stopped again when not); pending migrations are
// applied first.
//
// Services are imported lazily, after LOG_LEVEL is defaulted: the logger reads
// it at import, and routine info lines would only clutter an operator's stdout.
// Only the module of the command run is loaded (issue 28.4, decision 0048);
// `npm run cli` runs this file bundled by scripts/cli-launch.mjs.
import { checkArgs } from "./cli/check-args";
import { UsageError } from "./cli/command";
import { commandsFor } from "./cli/command-index";
import { describeTarget, refuseEmptyDataDir, takeInitFlag } from "./cli/target";

// An embedded server that a run starts outlives it for a while, so that the
// next command joins it (decision 0050); this program, run again with
// STOPPER_ARG, is what stops it.
const STOPPER_ARG = "--stop-embedded-when-idle";

if (process.argv[2] === STOPPER_ARG) {
  await (await import("../lib/db/stop-when-idle")).runStopper();
  process.exit(0);
}
process.env.LOG_LEVEL ??= "warn";
// Issue 10.5: a bad variable stops every command here, in one line (exit 2).
(await import("../lib/config/env")).loadEnvOrExit("cli");

async function main(args: string[]): Promise<number> {
  const { argv, init } = takeInitFlag(args);
  const { cmd, input } = checkArgs(await commandsFor(argv[0]), argv);
  if (cmd.database === false) {
    process.stdout.write(JSON.stringify(await cmd.run(input)) + "\n");
    return 0;
  }
  const { env } = await import("../lib/config/env");
  const { dataDir } = await import("../lib/config/paths");
  const external = env().DATABASE_URL;
  // Issue 35.5: before anything is written to DATA_DIR (secrets, a cluster).
  if (!external && !init && !cmd.createsDatabase) refuseEmptyDataDir(dataDir());
  const { connectDatabase } = await import("../lib/db/connect");
  const { applyPendingMigrations } = await import("../lib/db/apply-pending-migrations");
  const { ensureSecrets } = await import("../lib/crypto/secrets");
  const { disconnectDb } = await import("../lib/db/client");
  ensureSecrets();
  const conn = await connectDatabase({ outlive: true });
  if (conn.startedPid) {
    const { stopWhenIdleLater } = await import("../lib/db/stop-when-idle");
    const { withDatabase } = await import("../lib/db/embedded");
    // The maintenance database: a restore --force counts the sessions on its target database.
    const url = withDatabase(conn.adminUrl!, "postgres");
    const job = { url, pid: conn.startedPid, lingerMs: env().CLI_EMBEDDED_LINGER_SECONDS * 1000 };
    stopWhenIdleLater(job, [process.argv[1], STOPPER_ARG]);
  }
  let result: object;
  try {
    if (cmd.migrate !== false) await applyPendingMigrations(conn.url);
    result = { ...(await cmd.run(input)), _target: await describeTarget({ external, dataDir: dataDir() }) };
  } finally {
    await disconnectDb();
  }
  // Last, after anything the shutdown may print: the result is the last line.
  process.stdout.write(JSON.stringify(result) + "\n");
  return 0;
}

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (err) {
  const { AppError } = await import("../lib/errors");
  const { ConfigError, wantsStackTraces } = await import("../lib/config/env");
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n`);
    code = 2;
  } else if (err instanceof ConfigError) {
    // Issue 22.8: a weak secret file in DATA_DIR, as loadEnvOrExit says a weak variable.
    process.stderr.write(`cli: configuration error: ${err.message}\n`);
    code = 2;
  } else if (err instanceof AppError) {
    process.stderr.write(`error: ${err.publicMessage}\n`);
    code = err.code === "bad_request" ? 2 : 1;
  } else {
    // Unexpected: the message, and the stack only when asked for.
    // Issue 10.6: a full disk, a port or a directory out of reach, in one line saying what to do.
    const { startupMessage } = await import("../lib/ops/startup-errors");
    process.stderr.write(`error: ${startupMessage(err)}\n`);
    if (wantsStackTraces()) process.stderr.write(`${(err as Error)?.stack}\n`);
    code = 1;
  }
}
// The WASM migration engine leaves a timer running: exit explicitly.
process.exit(code);
