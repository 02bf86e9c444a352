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
  const url = await cloneTestDatabase();
  await disconnectDb();
  process.env.DATABASE_URL = url;
  return url;
}

/**
 * Another clone of the migrated template, WITHOUT pointing this process at
 * it: for a second app instance in the same test (an upstream supplier with
 * its own database). Use `onDatabase(url, fn)` to run services against it.
 */
export async function cloneTestDatabase(): Promise<string> {
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
  return withDatabase(serverUrl, name);
}

/**
 * Runs `fn` with this process's services (db()) pointed at another database,
 * then points them back. Only for sequential test set-up and checks: nothing
 * else in the process may use db() meanwhile.
 */
export async function onDatabase<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const previous = process.env.DATABASE_URL;
  await disconnectDb();
  process.env.DATABASE_URL = url;
  try {
    return await fn();
  } finally {
    await disconnectDb();
    // Assigning undefined would store the string "undefined".
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}
