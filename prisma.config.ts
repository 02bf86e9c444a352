import { defineConfig } from "prisma/config";

// Prisma's CLI wants a native schema engine it cannot download here; `generate`
// only needs the path to exist (see shared stack notes). Migrations go through
// scripts/migrate.ts and the WASM engine instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "prisma/schema.prisma";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  // `env()` throws when unset, even for `generate`.
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused" },
});
