import type pg from "pg";

export interface TableInfo {
  name: string;
  columns: string[];
}

/**
 * The application's tables in schema public (not `_prisma_migrations`), each
 * after the tables it references, so COPY FROM can load them in this order
 * with every foreign key checked. Self-references are checked at the end of
 * each COPY statement, so row order inside a table does not matter.
 */
export async function listTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; refs: string[] | null }>(`
    SELECT c.relname AS name,
      (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
      (SELECT array_agg(DISTINCT r.relname::text) FROM pg_constraint f JOIN pg_class r ON r.oid = f.confrelid
        WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS refs
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '_prisma_migrations'
    ORDER BY c.relname`);
  const byName = new Map(rows.map((r) => [r.name, r]));
  const ordered: TableInfo[] = [];
  const done = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (done.has(name) || path.has(name)) return; // a cycle would need deferrable keys; Prisma makes none
    path.add(name);
    for (const ref of byName.get(name)?.refs ?? []) visit(ref, path);
    done.add(name);
    const r = byName.get(name);
    if (r) ordered.push({ name: r.name, columns: r.columns });
  };
  for (const r of rows) visit(r.name, new Set());
  return ordered;
}

export const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
