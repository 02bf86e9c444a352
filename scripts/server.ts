// The production HTTP server: `tsx scripts/server.ts [--port N] [--hostname H]`.
// `npm start` runs it after preparing the database and the build, and the test
// harness and Playwright (through `npm start`) run it too, so every client
// address comes from the socket and TRUSTED_PROXIES (issue 8.5).
import { parseArgs } from "node:util";
import { parseTrustedProxies } from "../lib/config/trusted-proxies";
import { startHttpServer } from "../lib/ops/http-server";

const { values } = parseArgs({ options: { port: { type: "string" }, hostname: { type: "string" } } });
const port = Number(values.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`server: invalid port ${JSON.stringify(values.port ?? process.env.PORT)}`);
  process.exit(2);
}
let trust;
try {
  trust = parseTrustedProxies(process.env.TRUSTED_PROXIES);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}

await startHttpServer({ port, hostname: values.hostname, trust });
console.log(`server: listening on ${values.hostname ?? "*"}:${port}`);
// Today a stop signal ends the process at once, as `next start` did; a
// graceful drain would call server.close() and closeApp() here first.
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => process.exit(0));
