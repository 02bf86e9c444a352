// The production HTTP server: `node scripts/server-launch.mjs [--port N] [--hostname H]`
// runs a build of this file (decision 0106).
// `npm start` runs it after preparing the database and the build, and the test
// harness and Playwright (through `npm start`) run it too, so every client
// address comes from the socket and TRUSTED_PROXIES (issue 8.5).
import { parseArgs } from "node:util";
import { loadEnvOrExit, trustedProxiesText } from "../lib/config/env";
import { trustedProxiesWarning } from "../lib/config/trusted-proxies";
import { onStopSignals } from "../lib/ops/stop-signals";
import { drainAndClose } from "../lib/ops/drain";
import { startHttpServer } from "../lib/ops/http-server";
import { exitOnStartupError } from "../lib/ops/startup-errors";

// Issue 10.5: a bad variable stops the server here, in one line, before Next loads.
const config = loadEnvOrExit("server");
const { values } = parseArgs({ options: { port: { type: "string" }, hostname: { type: "string" } } });
const port = values.port === undefined ? config.PORT : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`server: invalid port ${JSON.stringify(values.port)}`);
  process.exit(2);
}

const running = await startHttpServer({
  port,
  hostname: values.hostname,
  trust: config.TRUSTED_PROXIES,
  maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS,
}).catch((err) => exitOnStartupError("server", err)); // a port in use: one line (issue 10.6)
console.log(`server: listening on ${values.hostname ?? "*"}:${port}`);
const trustWarning = trustedProxiesWarning(trustedProxiesText());
if (trustWarning) console.warn(`server: warning: ${trustWarning}`);
// Issue 10.4: the first stop signal drains (no new connections, in-flight
// requests finish within 10 s, the in-server worker finishes or releases its
// jobs, pools close) and exits 0; a later one exits at once. Issue 27.3: before
// that, SHUTDOWN_DELAY_MS of serving while not ready (decision 0040).
onStopSignals("server", async () => {
  await drainAndClose(running, { notReadyMs: config.SHUTDOWN_DELAY_MS });
  process.exit(0);
});
