import pg from "pg";

/**
 * A second process (the server, another CLI run) may have joined the embedded
 * server this run started. Stopping it under them would break their work, so
 * wait until no other client has been connected for a moment; if some stay
 * (a server that joined), leave PostgreSQL running for them.
 */
export async function stopWhenIdle(url: string, stop: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let idleSince = 0;
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      if (rows[0].n > 0) idleSince = 0;
      else if (!idleSince) idleSince = Date.now();
      // Another process has short gaps between its connections; a second of quiet is not one.
      else if (Date.now() - idleSince > 1000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.end();
  }
  if (idleSince && Date.now() - idleSince > 1000) await stop();
  else process.stderr.write("note: other processes are using the embedded PostgreSQL; it is left running for them\n");
}
