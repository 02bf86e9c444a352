// `npm run migrate` applies pending migrations; `npm run migrate:create -- <name>`
// writes a new one from the difference between prisma/migrations and the schema.
import { loadEnvOrExit } from "../lib/config/env";
import { connectDatabase } from "../lib/db/connect";
import { applyMigrations, createMigration } from "../lib/db/migrate";

loadEnvOrExit("migrate");
const [command, name] = process.argv.slice(2);
const conn = await connectDatabase();
let code = 0;
try {
  if (command === "create") {
    if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error("usage: npm run migrate:create -- <snake_case_name>");
    await applyMigrations(conn.url);
    // The engine diffs in a throw-away shadow database: the embedded superuser makes it (decision 0035).
    const dir = await createMigration(name, conn.adminUrl ?? conn.url);
    console.log(JSON.stringify({ created: dir ?? null }));
  } else {
    console.log(JSON.stringify({ applied: await applyMigrations(conn.url) }));
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  code = 1;
} finally {
  await conn.stop?.();
}
// The WASM engine leaves a timer running.
process.exit(code);
