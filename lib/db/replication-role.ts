import type pg from "pg";

/**
 * Sets session_replication_role for the rest of the open transaction when the
 * database role may (a superuser, as the embedded database's role is, or a
 * role granted SET ON PARAMETER session_replication_role) and returns true;
 * otherwise returns false and the transaction goes on as it was (the refused
 * SET is rolled back to a savepoint). In "replica" PostgreSQL fires no
 * foreign-key checks and only the triggers enabled ALWAYS or REPLICA. Setting
 * "origin", the default, tells whether the role may without changing anything.
 */
export async function setReplicationRoleIfAllowed(client: Pick<pg.ClientBase, "query">, role: "replica" | "origin"): Promise<boolean> {
  await client.query("SAVEPOINT replication_role");
  try {
    await client.query(`SET LOCAL session_replication_role = ${role === "replica" ? "replica" : "origin"}`);
    await client.query("RELEASE SAVEPOINT replication_role");
    return true;
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT replication_role; RELEASE SAVEPOINT replication_role");
    return false;
  }
}
