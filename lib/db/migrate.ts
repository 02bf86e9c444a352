import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import crypto from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, type ColumnType, ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import * as engineBg from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import { installJobSchema } from "./install-job-schema";

// Prisma's CLI needs a native schema engine that cannot be downloaded here, so
// migrations are created and applied with the official WASM build of the same
// engine. It records `_prisma_migrations` exactly like `prisma migrate deploy`.

const MIGRATIONS_DIR = path.resolve("prisma/migrations");
const SCHEMA_FILE = path.resolve("prisma/schema.prisma");
const filters = { externalTables: [], externalEnums: [] };

let wasmReady = false;
function loadWasm() {
  if (wasmReady) return;
  // The engine reports Rust panics through this global before throwing.
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } }).PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message: (message: string) => console.error(`schema engine panic: ${message}`),
  };
  const require = createRequire(import.meta.url);
  const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
  const module = new WebAssembly.Module(fs.readFileSync(wasmPath));
  const instance = new WebAssembly.Instance(module, { "./schema_engine_bg.js": engineBg });
  engineBg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  wasmReady = true;
}

async function openEngine(url: string): Promise<{ engine: SchemaEngine; close: () => Promise<void> }> {
  loadWasm();
  // Explicit fields, not connectionString: the adapter makes its shadow
  // database by overriding `database`, which a connectionString would win over.
  const u = new URL(url);
  const factory = new ShadowSafePg({
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
  });
  const schema = fs.readFileSync(SCHEMA_FILE, "utf8");
  const engine = await engineBg.SchemaEngine.new(
    { datamodels: [[SCHEMA_FILE, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  return {
    engine,
    close: async () => {
      engine.free();
      await factory.closeAll();
    },
  };
}

/**
 * Three fixes to the stock adapter for the schema engine's use:
 * - the engine's catalogue queries return columns of PostgreSQL's one-byte
 *   "char" type (OID 18), which the adapter does not map; read them as text;
 * - its executeScript splits migration files on every ";" (breaking function
 *   bodies and strings); send the script whole, as one simple-protocol query,
 *   which PostgreSQL runs as one implicit transaction;
 * - the stock shadow database is dropped while its own pool still holds a
 *   connection, which fails; this one closes the pool first and then drops.
 */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
/** The stock adapter's internals that this patches (its public type hides them). */
interface AdapterInternals {
  client: { query(sql: string): Promise<unknown> };
  executeScript(script: string): Promise<void>;
  performIO(query: object): Promise<{ fields: { dataTypeID: number }[] }>;
  queryRaw(query: object): Promise<{ columnTypes: ColumnType[] }>;
}
function fixForSchemaEngine<T extends object>(adapter: T): T {
  const a = adapter as unknown as AdapterInternals;
  a.executeScript = async (script: string) => {
    await a.client.query(script);
  };
  // performIO sees the same query object as queryRaw, so key by it.
  const charColumns = new WeakMap<object, number[]>();
  const performIO = a.performIO.bind(a);
  a.performIO = async (query: object) => {
    const result = await performIO(query);
    const cols: number[] = [];
    result.fields.forEach((field, i) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        field.dataTypeID = PG_TEXT_OID;
        cols.push(i);
      }
    });
    charColumns.set(query, cols);
    return result;
  };
  const queryRaw = a.queryRaw.bind(a);
  a.queryRaw = async (query: object) => {
    const result = await queryRaw(query);
    for (const i of charColumns.get(query) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  return adapter;
}

class ShadowSafePg extends PrismaPg {
  constructor(private readonly cfg: pg.PoolConfig) {
    super(cfg);
  }
  private readonly opened: { dispose(): Promise<void> }[] = [];
  override async connect() {
    const adapter = fixForSchemaEngine(await super.connect());
    this.opened.push(adapter);
    return adapter;
  }
  /** The engine never closes its pool; without this the database stays busy. */
  async closeAll() {
    await Promise.all(this.opened.splice(0).map((a) => a.dispose().catch(() => {})));
  }
  override async connectToShadowDb() {
    const name = `prisma_shadow_${crypto.randomUUID().replace(/-/g, "")}`;
    const admin = async (sql: string) => {
      const client = new pg.Client(this.cfg);
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    const adapter = fixForSchemaEngine(await new PrismaPg({ ...this.cfg, database: name }).connect());
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
    return adapter;
  }
}

function readMigrations(only?: string[]): MigrationList {
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  const dirs = fs.existsSync(MIGRATIONS_DIR)
    ? fs
        .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const wanted = only && new Set(only);
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs
      .filter((name) => !wanted || wanted.has(name))
      .map((name) => ({
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: { tag: "ok", value: fs.readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8") },
        },
      })),
  };
}

/**
 * Applies pending migrations; returns the names applied. `only`: just these
 * (a restore first recreates the schema version its archive was taken at).
 */
export async function applyMigrations(url: string, opts: { only?: string[] } = {}): Promise<string[]> {
  const { engine, close } = await openEngine(url);
  try {
    const out = await engine.applyMigrations({ migrationsList: readMigrations(opts.only), filters });
    // graphile-worker's own schema (install-job-schema.ts): present before anything can enqueue a job.
    await installJobSchema(url);
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}

/**
 * Writes prisma/migrations/<timestamp>_<name>/migration.sql with the SQL that
 * takes the existing migrations to the current schema. The engine replays the
 * migrations into a throw-away shadow database on the server of `url`.
 */
export async function createMigration(name: string, url: string): Promise<string | undefined> {
  const { engine, close } = await openEngine(url);
  try {
    fs.mkdirSync(MIGRATIONS_DIR, { recursive: true });
    const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
    if (!fs.existsSync(lockPath)) fs.writeFileSync(lockPath, 'provider = "postgresql"\n');
    const schema = fs.readFileSync(SCHEMA_FILE, "utf8");
    const result = await engine.diff({
      from: { tag: "migrations", ...readMigrations() },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_FILE, content: schema }] },
      script: true,
      exitCode: null,
      filters,
    });
    const sql = result.stdout ?? "";
    if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) return undefined;
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    return dir;
  } finally {
    await close();
  }
}
