import crypto from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { withDatabase } from "../db/embedded";
import { disconnectDb } from "../db/client";

/**
 * Clones the migrated template into a database of this test file's own and
 * points this process at it (DATABASE_URL). Returns its URL so a server
 * started by the test can use the same database.
 */
export async function useTestDatabase(): Promise<string> {
  const serverUrl = inject("testServerUrl");
  const template = inject("testTemplateDb");
  const name = template.replace(/_template$/, `_${crypto.randomBytes(6).toString("hex")}`);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  await disconnectDb();
  const url = withDatabase(serverUrl, name);
  process.env.DATABASE_URL = url;
  return url;
}
