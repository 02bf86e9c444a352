// `npm run cli`: runs scripts/cli.ts from a build of our own code
// (scripts/lib/run-built.mjs, issue 28.4, decision 0048), split per command.
// CLI_DEBUG: stack traces name the TypeScript lines, and a failed build says why.
import { runBuilt } from "./lib/run-built.mjs";

await runBuilt({ entry: "scripts/cli.ts", name: "cli", splitting: true, debug: Boolean(process.env.CLI_DEBUG) });
