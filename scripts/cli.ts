// The ops CLI: `npm run cli -- <command> [options]` (README "CLI").
// Each command prints ONE JSON object as the last line of stdout, or exits
// non-zero with a one-line reason on stderr: 2 for bad input (nothing was
// written), 1 when the operation was refused or failed. Same configuration as
// the server: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (joined
// when running, started and stopped again when not); pending migrations are
// applied first.
//
// Services are imported lazily, after LOG_LEVEL is defaulted: the logger reads
// it at import, and routine info lines would only clutter an operator's stdout.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
// These only validate (no database, no logger at import): arguments are
// checked before the database is touched.
import { AdminInputSchema } from "../lib/admins/create-admin";
import type { CatalogFile } from "../lib/catalog/catalog-file-schema";
import { readCatalogFile } from "../lib/catalog/validate-catalog-file";
import { SettingsPatchSchema, SETTING_KEYS } from "../lib/settings/update-settings";
import { MarkupPercentSchema, UpstreamConnectionInputSchema } from "../lib/upstream/connection-input";

process.env.LOG_LEVEL ??= "warn";

class UsageError extends Error {}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>["options"];
interface Command<S extends z.ZodType> {
  usage: string;
  options: Options;
  /** Arguments that are not options: a file, or key=value pairs. */
  positionals?: boolean;
  /** Checked before the database is touched: bad input writes nothing. */
  input: (values: Record<string, unknown>, positionals: string[]) => unknown;
  schema: S;
  run: (input: z.output<S>) => Promise<object>;
}
const command = <S extends z.ZodType>(c: Command<S>) => c;

const Email = z.email("must be an e-mail address").max(254);
const Amount = (signed: boolean) =>
  z.string().regex(signed ? /^-?\d{1,13}(\.\d{1,2})?$/ : /^\d{1,13}(\.\d{1,2})?$/, `must be ${signed ? "an" : "a non-negative"} amount with at most two decimals, like ${signed ? "-5.00" : "12.34"}`);

const COMMANDS = {
  "admin:create": command({
    usage: "admin:create --email E --password P",
    options: { email: { type: "string" }, password: { type: "string" } },
    input: (v) => v,
    schema: AdminInputSchema,
    run: async (a) => {
      const { createAdmin } = await import("../lib/admins/create-admin");
      return createAdmin(a, { actor: "cli" });
    },
  }),
  "user:create": command({
    usage: "user:create --email E [--points 12.34]",
    options: { email: { type: "string" }, points: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: Email, points: Amount(false).default("0") }),
    run: async (a) => {
      const { createUser } = await import("../lib/users/create-user");
      const { formatAmount, parseAmount } = await import("../lib/protocol/amount");
      const user = await createUser({ email: a.email, initialPointsCents: parseAmount(a.points) });
      return { id: user.id, email: user.email, points: formatAmount(user.balanceCents) };
    },
  }),
  "points:adjust": command({
    usage: "points:adjust --email E --amount -5.00 --reason R",
    options: { email: { type: "string" }, amount: { type: "string" }, reason: { type: "string" } },
    input: (v) => v,
    schema: z.object({
      email: Email,
      amount: Amount(true).refine((s) => !/^-?0*(\.0*)?$/.test(s), "must not be zero"),
      reason: z.string().trim().min(1, "is required").max(200),
    }),
    run: async (a) => {
      const { adjustPoints } = await import("../lib/points/adjust-points");
      const { formatAmount, parseAmount } = await import("../lib/protocol/amount");
      const balance = await adjustPoints({ email: a.email, deltaCents: parseAmount(a.amount), reason: `cli: ${a.reason}` });
      return { balance: formatAmount(balance) };
    },
  }),
  "points:reconcile": command({
    usage: "points:reconcile",
    options: {},
    input: () => ({}),
    schema: z.object({}),
    run: async () => {
      const { reconcilePoints } = await import("../lib/points/reconcile-points");
      const { formatAmount } = await import("../lib/protocol/amount");
      const r = await reconcilePoints();
      return {
        ok: r.ok,
        users_checked: r.usersChecked,
        mismatches: r.mismatches.map((m) => ({
          user_id: m.userId,
          email: m.email,
          balance: formatAmount(m.balanceCents),
          ledger_sum: formatAmount(m.ledgerSumCents),
          last_balance_after: m.lastBalanceAfterCents === null ? null : formatAmount(m.lastBalanceAfterCents),
        })),
      };
    },
  }),
  "apikey:create": command({
    usage: "apikey:create --email E [--name N]",
    options: { email: { type: "string" }, name: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: Email, name: z.string().trim().max(100).default("") }),
    run: async (a) => {
      const { getUserByEmail } = await import("../lib/users/get-user-by-email");
      const { createApiKey } = await import("../lib/credentials/create-api-key");
      const user = await getUserByEmail(a.email);
      const { apiKey, apiSecret } = await createApiKey(user.id, a.name);
      return { api_key: apiKey, api_secret: apiSecret };
    },
  }),
  "apikey:disable": command({
    usage: "apikey:disable --key K",
    options: { key: { type: "string" } },
    input: (v) => v,
    schema: z.object({ key: z.string().trim().min(1).max(200) }),
    run: async (a) => {
      const { disableApiKey } = await import("../lib/credentials/disable-api-key");
      await disableApiKey(a.key);
      return { ok: true };
    },
  }),
  "settings:set": command({
    usage: "settings:set key=value ... (site_name, public_base_url, image_exposure, points_debit_enabled, rate_limit_per_key, rate_limit_per_ip)",
    options: {},
    positionals: true,
    input: (_v, pairs) => {
      if (!pairs.length) throw new UsageError("give at least one key=value");
      const patch: Record<string, string> = {};
      for (const pair of pairs) {
        const eq = pair.indexOf("=");
        if (eq < 1) throw new UsageError(`expected key=value, got ${JSON.stringify(pair)}`);
        const key = pair.slice(0, eq);
        if (key in patch) throw new UsageError(`${key} given twice`);
        patch[key] = pair.slice(eq + 1);
      }
      return patch;
    },
    schema: SettingsPatchSchema,
    run: async (patch) => {
      const { updateSettings, settingsView } = await import("../lib/settings/update-settings");
      return settingsView(await updateSettings(patch));
    },
  }),
  "catalog:import": command({
    usage: "catalog:import FILE",
    options: {},
    positionals: true,
    input: (_v, files) => {
      if (files.length !== 1) throw new UsageError("give exactly one FILE");
      let text;
      try {
        text = fs.readFileSync(files[0], "utf8");
      } catch (err) {
        throw new UsageError(`cannot read ${files[0]}: ${(err as NodeJS.ErrnoException).code ?? err}`);
      }
      // The whole file is validated here, before the database is touched.
      return readCatalogFile(text);
    },
    schema: z.custom<CatalogFile>(),
    run: async (file) => {
      const { importCatalog } = await import("../lib/catalog/import-catalog");
      const c = await importCatalog(file);
      return {
        categories_created: c.categoriesCreated, categories_updated: c.categoriesUpdated,
        products_created: c.productsCreated, products_updated: c.productsUpdated,
        skus_created: c.skusCreated, skus_updated: c.skusUpdated,
        card_keys_added: c.cardKeysAdded, card_keys_skipped: c.cardKeysSkipped,
      };
    },
  }),
  "order:deliver": command({
    usage: "order:deliver --order-no N --payload TEXT",
    options: { "order-no": { type: "string" }, payload: { type: "string" } },
    input: (v) => v,
    schema: z.object({ "order-no": z.string().trim().min(1).max(64), payload: z.string().min(1, "is required") }),
    run: async (a) => {
      const { deliverOrder } = await import("../lib/fulfilment/deliver-order");
      const r = await deliverOrder({ orderNo: a["order-no"], payloadText: a.payload, actor: "cli" });
      return { order_id: r.orderId, order_no: r.orderNo, status: r.status, lines: r.lines, callback_queued: r.callbackQueued };
    },
  }),
  "order:fail": command({
    usage: "order:fail --order-no N --reason R",
    options: { "order-no": { type: "string" }, reason: { type: "string" } },
    input: (v) => v,
    schema: z.object({ "order-no": z.string().trim().min(1).max(64), reason: z.string().trim().min(1, "is required").max(200) }),
    run: async (a) => {
      const { failOrder } = await import("../lib/fulfilment/fail-order");
      const r = await failOrder({ orderNo: a["order-no"], reason: a.reason, actor: "cli" });
      return { order_id: r.orderId, order_no: r.orderNo, status: r.status, reason: r.reason, callback_queued: r.callbackQueued };
    },
  }),
  "upstream:add": command({
    usage: "upstream:add --name N --base-url URL --profile U|P --api-key K --api-secret S [--max-wait-seconds 1800]",
    options: {
      name: { type: "string" }, "base-url": { type: "string" }, profile: { type: "string" },
      "api-key": { type: "string" }, "api-secret": { type: "string" }, "max-wait-seconds": { type: "string" },
    },
    input: (v) => v,
    schema: z.object({
      name: UpstreamConnectionInputSchema.shape.name,
      "base-url": UpstreamConnectionInputSchema.shape.baseUrl,
      profile: UpstreamConnectionInputSchema.shape.profile,
      "api-key": UpstreamConnectionInputSchema.shape.apiKey,
      "api-secret": UpstreamConnectionInputSchema.shape.apiSecret,
      "max-wait-seconds": z.string().regex(/^[1-9][0-9]{0,6}$/, "must be a whole number of seconds").default("1800"),
    }),
    run: async (a) => {
      const { addUpstreamConnection } = await import("../lib/upstream/add-upstream-connection");
      const c = await addUpstreamConnection(
        { name: a.name, baseUrl: a["base-url"], profile: a.profile, apiKey: a["api-key"], apiSecret: a["api-secret"], maxWaitSeconds: Number(a["max-wait-seconds"]) },
        { actor: "cli" },
      );
      return { id: c.id };
    },
  }),
  "upstream:import": command({
    usage: "upstream:import --connection ID [--markup-percent 10]",
    options: { connection: { type: "string" }, "markup-percent": { type: "string" } },
    input: (v) => v,
    schema: z.object({
      connection: z.string().regex(/^[1-9][0-9]{0,9}$/, "must be a connection id"),
      "markup-percent": MarkupPercentSchema.default("0"),
    }),
    run: async (a) => {
      const { importUpstreamCatalog } = await import("../lib/upstream/import-upstream-catalog");
      const c = await importUpstreamCatalog({ connectionId: Number(a.connection), markupPercent: a["markup-percent"], actor: "cli" });
      return {
        categories_created: c.categoriesCreated, categories_updated: c.categoriesUpdated, categories_delisted: c.categoriesDelisted,
        products_created: c.productsCreated, products_updated: c.productsUpdated, products_delisted: c.productsDelisted,
        skus_created: c.skusCreated, skus_updated: c.skusUpdated, skus_delisted: c.skusDelisted,
        // Issue 8.3: what was left out and why (our words, never the upstream's).
        skipped: c.skipped.map((s) => ({ upstream_product_id: s.upstreamProductId, reason: s.reason })),
      };
    },
  }),
  "upstream:list": command({
    usage: "upstream:list [--ping]",
    options: { ping: { type: "boolean" } },
    input: (v) => v,
    schema: z.object({ ping: z.boolean().default(false) }),
    run: async (a) => {
      const { listUpstreamConnections, pingUpstreamConnection } = await import("../lib/upstream/list-upstream-connections");
      if (a.ping) for (const c of await listUpstreamConnections()) await pingUpstreamConnection(c.id);
      const rows = await listUpstreamConnections();
      return {
        connections: rows.map((c) => ({
          id: c.id, name: c.name, base_url: c.baseUrl, profile: c.profile, api_key: c.apiKey, max_wait_seconds: c.maxWaitSeconds,
          enabled: c.isEnabled, last_ping_at: c.lastPingAt, last_ping_ok: c.lastPingOk, balance: c.lastBalance, products: c.products,
        })),
      };
    },
  }),
};

function usage(): string {
  return ["usage: npm run cli -- <command>", ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join("\n");
}

/** Validates the arguments of one command without touching the database. */
function parseCommand(argv: string[]) {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") throw new UsageError(usage());
  if (!Object.hasOwn(COMMANDS, name)) throw new UsageError(`unknown command ${JSON.stringify(name)}\n${usage()}`);
  const cmd = COMMANDS[name as keyof typeof COMMANDS] as Command<z.ZodType>;
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeValues(rest, cmd.options), options: cmd.options, allowPositionals: !!cmd.positionals, strict: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split("\n")[0]}\nusage: npm run cli -- ${cmd.usage}`);
  }
  const raw = cmd.input(parsed.values, parsed.positionals) as Record<string, unknown>;
  const checked = cmd.schema.safeParse(raw);
  if (!checked.success) {
    const problems = checked.error.issues.map((i) => {
      if (i.code === "unrecognized_keys") return `unknown setting ${i.keys.join(", ")} (known: ${SETTING_KEYS.join(", ")})`;
      const key = String(i.path[0] ?? "");
      const label = cmd.positionals ? key : `--${key}`;
      return raw?.[key] === undefined ? `${label} is required` : `${label}: ${i.message}`;
    });
    throw new UsageError(`${problems.join("; ")}\nusage: npm run cli -- ${cmd.usage}`);
  }
  return { cmd, input: checked.data };
}

/** `--amount -5.00`: node's parseArgs takes "-5.00" for an option; pass it as `--amount=-5.00`. */
function joinNegativeValues(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith("--") ? args[i].slice(2) : undefined;
    const next = args[i + 1];
    if (name && options?.[name]?.type === "string" && next !== undefined && /^-[^-]/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i++;
    } else out.push(args[i]);
  }
  return out;
}

/**
 * A second process (the server, another CLI run) may have joined the embedded
 * server this run started. Stopping it under them would break their work, so
 * wait until no other client has been connected for a moment; if some stay
 * (a server that joined), leave PostgreSQL running for them.
 */
async function stopWhenIdle(url: string, stop: () => Promise<void>): Promise<void> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let idleSince = 0;
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
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

async function main(argv: string[]): Promise<number> {
  const { cmd, input } = parseCommand(argv);
  const { connectDatabase } = await import("../lib/db/connect");
  const { applyMigrations } = await import("../lib/db/migrate");
  const { ensureSecrets } = await import("../lib/config/secrets");
  const { disconnectDb } = await import("../lib/db/client");
  ensureSecrets();
  const conn = await connectDatabase();
  let result: object;
  try {
    await applyMigrations(conn.url);
    result = await cmd.run(input);
  } finally {
    await disconnectDb();
    if (conn.stop) await stopWhenIdle(conn.url, conn.stop);
  }
  // Last, after anything the shutdown may print: the result is the last line.
  process.stdout.write(JSON.stringify(result) + "\n");
  return 0;
}

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (err) {
  const { AppError } = await import("../lib/errors");
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n`);
    code = 2;
  } else if (err instanceof AppError) {
    process.stderr.write(`error: ${err.publicMessage}\n`);
    code = err.code === "bad_request" ? 2 : 1;
  } else {
    // Unexpected: the message, and the stack only when asked for.
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.CLI_DEBUG) process.stderr.write(`${(err as Error)?.stack}\n`);
    code = 1;
  }
}
// The WASM migration engine leaves a timer running: exit explicitly.
process.exit(code);
