import pg from "pg";
import { log } from "../log";

// Decision 0035: the embedded PostgreSQL serves the application as a role
// that owns the app's database and nothing else, as an operator's external
// server does (README "Production"). The superuser made by initdb stays for
// administration: starting the server, creating the database and this role,
// a throw-away shadow database for `migrate:create`. A statement the app
// runs by mistake or by injection then cannot read server files, run
// programs (COPY … PROGRAM), change the server's configuration or reach
// other databases' data.

/** The role the embedded database's app connects as. */
export const APP_ROLE = "cardkey";

// Any constant; it only has to differ from the other advisory locks we take.
const ROLE_LOCK_KEY = 774_201_002;

/**
 * What the app role does not own yet in the current database, as the ALTER
 * statements that give it: schemas (not the system's, not public while it
 * belongs to pg_database_owner, i.e. to the database's owner), tables, views
 * and free-standing sequences (a column's sequence follows its table), routines
 * and types. A DATA_DIR made before decision 0035 has all of these owned by the
 * superuser that migrated it. Objects of an extension are left to it.
 */
const NOT_OWNED_SQL = `
  WITH ns AS (
    SELECT oid, nspname, nspowner FROM pg_namespace
    WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
  ), ext AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
  SELECT format('ALTER SCHEMA %I OWNER TO %I', nspname, $1::text) AS sql FROM ns
    WHERE nspowner NOT IN ($1::regrole, 'pg_database_owner'::regrole)
      AND NOT EXISTS (SELECT 1 FROM ext WHERE ext.classid = 'pg_namespace'::regclass AND ext.objid = ns.oid)
  UNION ALL
  SELECT format('ALTER %s %s OWNER TO %I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
      WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, c.oid::regclass, $1::text)
    FROM pg_class c JOIN ns ON ns.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND c.relowner <> $1::regrole
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))
  UNION ALL
  SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, $1::text)
    FROM pg_proc p JOIN ns ON ns.oid = p.pronamespace
    WHERE p.proowner <> $1::regrole AND p.prokind IN ('f', 'p')
      AND NOT EXISTS (SELECT 1 FROM ext WHERE ext.classid = 'pg_proc'::regclass AND ext.objid = p.oid)
  UNION ALL
  SELECT format('ALTER TYPE %s OWNER TO %I', t.oid::regtype, $1::text)
    FROM pg_type t JOIN ns ON ns.oid = t.typnamespace LEFT JOIN pg_class r ON r.oid = t.typrelid
    WHERE t.typowner <> $1::regrole AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND r.relkind = 'c'))
      AND NOT EXISTS (SELECT 1 FROM ext WHERE ext.classid = 'pg_type'::regclass AND ext.objid = t.oid)`;

/**
 * Whether the app role, connected as itself, is already as decision 0035
 * wants it: no superuser or other cluster-wide power, owner of this database
 * and of everything of the app in it, allowed to set
 * session_replication_role (decision 0024's fast card-key move).
 */
async function isInPlace(appUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: appUrl });
  try {
    await client.connect();
  } catch {
    return false; // no role yet, or another password (its file was replaced)
  }
  try {
    const { rows } = await client.query<{ ok: boolean }>(
      `
      SELECT NOT (r.rolsuper OR r.rolcreatedb OR r.rolcreaterole OR r.rolreplication OR r.rolbypassrls)
        AND d.datdba = r.oid
        AND (current_setting('server_version_num')::int < 150000 OR has_parameter_privilege('session_replication_role', 'SET'))
        AND NOT EXISTS (${NOT_OWNED_SQL}) AS ok
      FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`,
      [APP_ROLE],
    );
    return rows[0]?.ok === true;
  } finally {
    await client.end();
  }
}

/**
 * Makes the app role of the embedded database (when missing, or after its
 * password file was replaced) and gives it the database and everything in
 * it; returns the URL the app connects with. `adminUrl` is the superuser's
 * URL of the app's database. Costs one connection as the app role when all
 * is in place; otherwise the superuser repairs it, one process at a time.
 */
export async function ensureAppRole(adminUrl: string, password: string): Promise<string> {
  const url = new URL(adminUrl);
  url.username = APP_ROLE;
  url.password = password; // the setter percent-encodes
  const appUrl = url.toString();
  if (await isInPlace(appUrl)) return appUrl;

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("BEGIN");
    await admin.query("SELECT pg_advisory_xact_lock($1)", [ROLE_LOCK_KEY]);
    const role = admin.escapeIdentifier(APP_ROLE);
    const exists = (await admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [APP_ROLE])).rowCount;
    const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${admin.escapeLiteral(password)}`;
    await admin.query(`${exists ? "ALTER" : "CREATE"} ROLE ${role} WITH ${attributes}`);
    await admin.query(
      `ALTER DATABASE ${admin.escapeIdentifier((await admin.query<{ d: string }>("SELECT current_database() AS d")).rows[0].d)} OWNER TO ${role}`,
    );
    const { rows } = await admin.query<{ sql: string }>(NOT_OWNED_SQL, [APP_ROLE]);
    for (const { sql } of rows) await admin.query(sql);
    // Decision 0035: the owner may already disable its tables' triggers and
    // drop their keys; replica mode adds nothing in a cluster that holds only
    // its database, and keeps the card-key move twice as fast (decision 0024).
    if (Number((await admin.query<{ server_version_num: string }>("SHOW server_version_num")).rows[0].server_version_num) >= 150000) {
      await admin.query(`GRANT SET ON PARAMETER session_replication_role TO ${role}`);
    }
    await admin.query("COMMIT");
    if (rows.length)
      log.info({ objects: rows.length, role: APP_ROLE }, "embedded database: objects made by the superuser now belong to the app role");
  } catch (err) {
    await admin.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await admin.end();
  }
  return appUrl;
}

/**
 * With DATABASE_URL the operator chose the role; a superuser works but is
 * more than the app needs (decision 0035), so the start says so once.
 */
export async function warnIfSuperuser(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ rolsuper: boolean }>("SELECT rolsuper FROM pg_roles WHERE rolname = current_user");
    if (rows[0]?.rolsuper) {
      log.warn(
        'DATABASE_URL connects as a superuser: a role that owns only its database is enough (README "Production", the database role)',
      );
    }
  } finally {
    await client.end();
  }
}
