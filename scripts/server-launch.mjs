// The HTTP server `npm start` runs (`node scripts/server-launch.mjs [--port N]
// [--hostname H]`): scripts/server.ts from a build of our own code
// (scripts/lib/run-built.mjs, decision 0106), in one file, without tsx's
// loader thread. CLI_DEBUG: stack traces name the TypeScript lines (source maps, more memory).
import { runBuilt } from "./lib/run-built.mjs";

await runBuilt({ entry: "scripts/server.ts", name: "server", splitting: false, debug: Boolean(process.env.CLI_DEBUG) });
