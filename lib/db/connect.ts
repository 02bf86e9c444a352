import { env } from "../config/env";
import { dataDir } from "../config/paths";
import { ensureAppRole } from "./app-role";
import { connectOrStartEmbedded, createDatabaseIfMissing, EMBEDDED_DB_NAME, readOrCreatePassword, withDatabase } from "./embedded";

export interface DatabaseConnection {
  /** What the app connects with (also set as DATABASE_URL). */
  url: string;
  embedded: boolean;
  /** Embedded only: the superuser's URL of the same database, for administration (decision 0035). */
  adminUrl?: string;
  /** Present when this process started the embedded server and must stop it. */
  stop?: () => Promise<void>;
  /** The started embedded server's postmaster pid (with `outlive`: for the stopper that outlives us). */
  startedPid?: number;
}

/**
 * Makes DATABASE_URL usable for this process: the configured server when set,
 * else the embedded PostgreSQL under DATA_DIR (joined if running, started if
 * not), where the app connects as the role that owns its database, not as the
 * superuser (decision 0035). `outlive`: an embedded server started here may
 * outlive this process (the CLI, decision 0050).
 */
export async function connectDatabase({ outlive = false }: { outlive?: boolean } = {}): Promise<DatabaseConnection> {
  const configured = env().DATABASE_URL;
  if (configured) return { url: configured, embedded: false };
  const dir = dataDir();
  const server = await connectOrStartEmbedded(dir, { outlive });
  try {
    await createDatabaseIfMissing(server.serverUrl, EMBEDDED_DB_NAME);
    const adminUrl = withDatabase(server.serverUrl, EMBEDDED_DB_NAME);
    const url = await ensureAppRole(adminUrl, readOrCreatePassword(dir, "pg-app-password"));
    process.env.DATABASE_URL = url;
    return { url, adminUrl, embedded: true, stop: server.stop, startedPid: server.pid };
  } catch (err) {
    await server.stop?.().catch(() => undefined);
    throw err;
  }
}
