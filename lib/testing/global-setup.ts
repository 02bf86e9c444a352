import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { connectOrStartEmbedded, withDatabase } from "../db/embedded";
import { applyMigrations } from "../db/migrate";
import { ensureBuild } from "../ops/ensure-build";

export const TEMPLATE_DB = "cardkey_test_template";

/**
 * Once per test run: a PostgreSQL server (embedded under .test-data, or
 * TEST_DATABASE_URL), one migrated template database that every test file
 * clones, and a current `next build` for tests that start the real server.
 */
export default async function setup(project: TestProject) {
  let serverUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!serverUrl) {
    const dir = path.resolve(".test-data");
    fs.mkdirSync(dir, { recursive: true });
    const server = await connectOrStartEmbedded(dir);
    serverUrl = server.serverUrl;
    stop = server.stop;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // Drop databases left by earlier runs, then make a fresh template.
  const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'cardkey_test_%'`);
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  await admin.end();
  await applyMigrations(withDatabase(serverUrl, TEMPLATE_DB));
  if (process.env.SKIP_BUILD !== "1") ensureBuild();
  project.provide("testServerUrl", serverUrl);
  return async () => {
    await stop?.();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    testServerUrl: string;
  }
}
