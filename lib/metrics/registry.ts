import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { registerDatabaseGauges } from "./database-gauges";

// One registry per process, kept on globalThis: Next bundles route handlers
// and instrumentation separately, so a module-level registry would exist once
// per bundle and /metrics would miss what other bundles counted. Each app
// instance exposes its own (issue 10 item 7); Prometheus adds them up.
interface Metrics {
  registry: Registry;
  requests: Counter<"endpoint" | "profile" | "status">;
  requestSeconds: Histogram<"endpoint" | "status">;
}

const g = globalThis as unknown as { __cardkeyMetrics?: Metrics };

export function metrics(): Metrics {
  if (g.__cardkeyMetrics) return g.__cardkeyMetrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "cardkey_" });
  registerDatabaseGauges(registry);
  g.__cardkeyMetrics = {
    registry,
    requests: new Counter({
      name: "cardkey_api_requests_total",
      help: "Supplier API requests answered, by endpoint, profile and HTTP status",
      labelNames: ["endpoint", "profile", "status"],
      registers: [registry],
    }),
    requestSeconds: new Histogram({
      name: "cardkey_api_request_duration_seconds",
      help: "Supplier API request latency, by endpoint and HTTP status",
      labelNames: ["endpoint", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
  return g.__cardkeyMetrics;
}

/** The one hook in lib/supplier-api/define-endpoint.ts, beside its log line. Labels are bounded: endpoint names and statuses are ours. */
export function observeApiRequest(endpoint: string, profile: string | null, status: number, durationMs: number): void {
  const key = `${endpoint} ${profile} ${status}`;
  let series = seriesOf.get(key);
  if (!series) {
    const m = metrics();
    series = {
      requests: m.requests.labels({ endpoint, profile: profile ?? "none", status: String(status) }),
      seconds: m.requestSeconds.labels({ endpoint, status: String(status) }),
    };
    seriesOf.set(key, series);
  }
  series.requests.inc();
  series.seconds.observe(durationMs / 1000);
}

// Each labelled series found once (prom-client hashes the labels on every call otherwise: 2 % of
// the server's CPU under catalogue reads, issue 40.2). As bounded as the labels themselves.
const seriesOf = new Map<string, { requests: { inc(): void }; seconds: { observe(v: number): void } }>();
