import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { connectOrStartEmbedded, withDatabase } from "../db/embedded";
import { applyMigrations } from "../db/migrate";
import { ensureBuild } from "../ops/ensure-build";

/**
 * Once per test run: a PostgreSQL server (a fresh embedded one under
 * .test-data/<run>, or TEST_DATABASE_URL), one migrated template database
 * that every test file clones, and a current `next build` for tests that
 * start the real server. Names carry the run id, so parallel runs on one
 * server never touch each other's databases.
 */
export default async function setup(project: TestProject) {
  const runId = `${Math.floor(Date.now() / 1000)}_${process.pid}`;
  let serverUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  const runDir = path.resolve(".test-data", runId);
  if (!serverUrl) {
    removeOldRunDirs(path.resolve(".test-data"));
    const server = await connectOrStartEmbedded(runDir);
    serverUrl = server.serverUrl;
    stop = server.stop;
  }
  const template = `cardkey_test_${runId}_template`;
  await adminQuery(serverUrl, `CREATE DATABASE "${template}"`);
  await applyMigrations(withDatabase(serverUrl, template));
  // The benchmark's baseline route is built in for scripts/bench-catalog.test.ts (still 404 unless a server runs with the flag).
  if (process.env.SKIP_BUILD !== "1") ensureBuild(process.cwd(), { ENABLE_BENCH_ROUTES: "1" });
  project.provide("testServerUrl", serverUrl);
  project.provide("testTemplateDb", template);
  return async () => {
    if (stop) {
      await stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    } else {
      const { rows } = await adminQuery(serverUrl, `SELECT datname FROM pg_database WHERE datname LIKE 'cardkey_test_${runId}_%'`);
      for (const { datname } of rows) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  };
}

async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs that crashed leave their directory behind; clear those older than an hour. */
function removeOldRunDirs(root: string) {
  if (!fs.existsSync(root)) return;
  for (const name of fs.readdirSync(root)) {
    const started = Number(name.split("_")[0]) * 1000;
    if (started && Date.now() - started > 3600_000) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    testServerUrl: string;
    testTemplateDb: string;
  }
}
