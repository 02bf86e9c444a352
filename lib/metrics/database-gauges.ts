import { Gauge, type Registry } from "prom-client";
import { db } from "../db/client";

/** Card-key stock is reported for at most this many SKUs (the lowest first): a bounded label count. */
export const STOCK_SKU_LIMIT = 50;

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

/**
 * Business gauges computed from the database at scrape time: they describe
 * the shared database, so every instance reports the same values. Cheap
 * queries on indexed columns; the per-SKU stock is capped at STOCK_SKU_LIMIT.
 */
export function registerDatabaseGauges(registry: Registry): void {
  const gauge = (name: string, help: string, labelNames: string[], collect: (g: Gauge<string>) => Promise<void>) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await collect(this);
      },
    });

  gauge("cardkey_orders", "Orders by profile and status (outcome)", ["profile", "status"], async (g) => {
    for (const r of await q(`SELECT profile::text, status::text, count(*) AS n FROM "Order" GROUP BY 1, 2`))
      g.set({ profile: String(r.profile), status: String(r.status) }, num(r.n));
  });
  gauge("cardkey_deliveries", "Orders delivered, by fulfillment source", ["source"], async (g) => {
    for (const r of await q(`SELECT source::text, count(*) AS n FROM "Fulfillment" GROUP BY 1`))
      g.set({ source: String(r.source) }, num(r.n));
  });
  gauge("cardkey_refunds", "Refund entries in the points ledger", [], async (g) => {
    const [r] = await q(`SELECT count(*) AS n FROM "PointsLedger" WHERE reason LIKE 'refund:%'`);
    g.set(num(r?.n));
  });
  gauge("cardkey_callback_attempts", "Callback attempts, by result (ok = HTTP 2xx)", ["result"], async (g) => {
    const [r] = await q(
      `SELECT count(*) FILTER (WHERE "httpStatus" BETWEEN 200 AND 299) AS ok, count(*) FILTER (WHERE "httpStatus" IS NULL OR "httpStatus" NOT BETWEEN 200 AND 299) AS failed FROM "CallbackAttempt"`,
    );
    g.set({ result: "ok" }, num(r?.ok));
    g.set({ result: "failed" }, num(r?.failed));
  });
  gauge("cardkey_callbacks", "Callbacks by status", ["status"], async (g) => {
    for (const r of await q(`SELECT status::text, count(*) AS n FROM "Callback" GROUP BY 1`)) g.set({ status: String(r.status) }, num(r.n));
  });
  gauge("cardkey_upstream_purchases", "Upstream purchases by state", ["status"], async (g) => {
    for (const r of await q(`SELECT status::text, count(*) AS n FROM "UpstreamPurchase" GROUP BY 1`))
      g.set({ status: String(r.status) }, num(r.n));
  });
  gauge("cardkey_points_balance", "Total points balance of all buyers", [], async (g) => {
    const [r] = await q(`SELECT coalesce(sum("balanceCents"), 0) AS cents FROM "User"`);
    g.set(num(r?.cents) / 100);
  });
  gauge(
    "cardkey_card_keys_available",
    `Available card keys for the ${STOCK_SKU_LIMIT} active auto SKUs with the fewest`,
    ["sku"],
    async (g) => {
      const rows = await q(`SELECT s."skuCode" AS sku, count(k."keyId") AS n FROM "Sku" s JOIN "Product" p ON p.id = s."productId"
      LEFT JOIN "KeyStock" k ON k."skuId" = s.id
      WHERE s."isActive" AND s."deletedAt" IS NULL AND p."fulfillmentType" = 'auto'
      GROUP BY s.id ORDER BY n, s.id LIMIT ${STOCK_SKU_LIMIT}`);
      for (const r of rows) g.set({ sku: String(r.sku) }, num(r.n));
    },
  );
  gauge("cardkey_jobs_waiting", "Jobs ready to run and not taken by a worker", [], async (g) => g.set(num((await jobs())?.n)));
  gauge("cardkey_jobs_oldest_waiting_seconds", "Age of the oldest job ready to run and not taken", [], async (g) =>
    g.set(num((await jobs())?.age)),
  );
}

const q = (sql: string) => db().$queryRawUnsafe<Row[]>(sql);

// A scrape collects every gauge at once: both job gauges share the query in flight.
let jobsInFlight: Promise<Row | undefined> | undefined;
function jobs(): Promise<Row | undefined> {
  jobsInFlight ??= q(`SELECT count(*) AS n, coalesce(extract(epoch FROM now() - min(run_at)), 0) AS age FROM graphile_worker._private_jobs
      WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts`)
    .then(
      (rows) => rows[0],
      () => undefined,
    )
    .finally(() => (jobsInFlight = undefined));
  return jobsInFlight;
}
