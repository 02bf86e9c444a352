import { env } from "../config/env";
import { dataDir } from "../config/paths";
import { connectOrStartEmbedded, createDatabaseIfMissing, EMBEDDED_DB_NAME, withDatabase } from "./embedded";

/**
 * Makes DATABASE_URL usable for this process: the configured server when set,
 * else the embedded PostgreSQL under DATA_DIR (joined if running, started if
 * not). Returns a stop function when this process started the server.
 */
export async function connectDatabase(): Promise<{ url: string; embedded: boolean; stop?: () => Promise<void> }> {
  const configured = env().DATABASE_URL;
  if (configured) return { url: configured, embedded: false };
  const server = await connectOrStartEmbedded(dataDir());
  await createDatabaseIfMissing(server.serverUrl, EMBEDDED_DB_NAME);
  const url = withDatabase(server.serverUrl, EMBEDDED_DB_NAME);
  process.env.DATABASE_URL = url;
  return { url, embedded: true, stop: server.stop };
}
