// `npm run worker`: job workers only, no web server. Run any number of these,
// on any machines, against one database (set DATABASE_URL and SECRET_KEY like
// the app; without DATABASE_URL it joins the embedded database under DATA_DIR).
// Pair with WORKER_IN_SERVER=false on the app servers if jobs should run here only.
import { loadEnvOrExit } from "../lib/config/env";
import { ensureSecrets } from "../lib/crypto/secrets";
import { connectDatabase } from "../lib/db/connect";
import { disconnectDb } from "../lib/db/client";
import { applyMigrations } from "../lib/db/migrate";
import { startWorker } from "../lib/worker/start-worker";
import { log } from "../lib/log";
import { onStopSignals } from "../lib/ops/stop-signals";
import { assertDataDirUsable, exitOnStartupError } from "../lib/ops/startup-errors";
import { dataDir } from "../lib/config/paths";

loadEnvOrExit("worker"); // issue 10.5: a bad value stops here, in one line
const { database, worker } = await (async () => {
  try {
    await assertDataDirUsable(dataDir());
    ensureSecrets();
    const database = await connectDatabase();
    // Idempotent; whichever process starts first brings the schema up to date.
    await applyMigrations(database.url);
    return { database, worker: await startWorker({ connectionString: database.url }) };
  } catch (err) {
    exitOnStartupError("worker", err); // issue 10.6: one line a person can act on
  }
})();
log.info({ workerIds: worker.workerIds }, "worker process running; Ctrl-C to stop");

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  log.info("stopping: waiting for running jobs");
  await worker.stop();
  await disconnectDb();
  await database.stop?.();
  process.exit(0);
}
onStopSignals("worker", shutdown);
