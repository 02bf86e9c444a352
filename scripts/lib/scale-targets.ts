// The targets `bench:catalog-scale` prints (issue 40.2): for each one of the
// issue, the figure, the target and whether it was met, and an overall `met`;
// the cores it ran on, so a figure is never read without them. The issue
// measures on two cores, the stack and the client pinned together
// (`taskset -c 0,1 npm run bench:catalog-scale`).
import fs from "node:fs";
import os from "node:os";

/** The cores the bench may use: node's count and, on Linux, the affinity it runs under (taskset). */
export function cores(): { available_parallelism: number; cpus_allowed_list: string | null } {
  let allowed: string | null = null;
  try {
    allowed = /^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1] ?? null;
  } catch {
    /* not Linux */
  }
  return { available_parallelism: os.availableParallelism(), cpus_allowed_list: allowed };
}

export interface Figures {
  importSeconds: number;
  listedAfterSeconds: number;
  /** Medians over the rounds of ours / bare (undefined when the baseline was skipped). */
  vsBare?: { page_p99: number; pages_per_second: number; detail_p99: number };
  serverRssMb: number;
  pageP99Ms: number;
  detailP99Ms: number;
  staleMaxMs: number;
  cliRssMb: number;
}

type Target = { value: number | null; target: string; met: boolean };
const atMost = (value: number | undefined, limit: number, unit = ""): Target => ({
  value: value ?? null,
  target: `<= ${limit}${unit}`,
  met: value !== undefined && value <= limit,
});

/**
 * Issue 40.2's targets, each with `met`, and `met` for all of them; a ratio
 * target without a baseline (`--baseline-seconds 0`) is not met. The older
 * absolute targets of issues 13.4 and 28 follow as `also`, outside `met`.
 */
export function scaleTargets(f: Figures) {
  const issue = {
    first_import_seconds: atMost(f.importSeconds, 30, " s"),
    listed_after_import_seconds: atMost(f.listedAfterSeconds, 2, " s"),
    page_p99_vs_bare: atMost(f.vsBare?.page_p99, 1.5, "x bare's page p99"),
    pages_per_second_vs_bare: {
      value: f.vsBare?.pages_per_second ?? null,
      target: ">= 0.9x bare's pages/s",
      met: f.vsBare !== undefined && f.vsBare.pages_per_second >= 0.9,
    },
    detail_p99_vs_bare: atMost(f.vsBare?.detail_p99, 1.5, "x bare's detail p99"),
    server_rss_mb: atMost(f.serverRssMb, 450, " MB"),
  };
  return {
    cores: cores(),
    ...issue,
    met: Object.values(issue).every((t) => t.met),
    also: {
      products_page_p99_ms: atMost(f.pageP99Ms, 50, " ms"),
      product_detail_p99_ms: atMost(f.detailP99Ms, 20, " ms"),
      staleness_max_ms: atMost(f.staleMaxMs, 2000, " ms"),
      cli_rss_mb: { value: f.cliRssMb, target: "< 300 MB", met: f.cliRssMb < 300 },
    },
  };
}

/** The targets as lines for the terminal, one per target, then `met`. */
export function targetLines(t: ReturnType<typeof scaleTargets>): string {
  const { cores: c, met, also, ...issue } = t;
  const line = ([name, x]: [string, Target]) => `  ${name}: ${x.value ?? "n/a"} (target ${x.target}) met: ${x.met}`;
  return [
    `cores: ${c.available_parallelism} (affinity ${c.cpus_allowed_list ?? "unknown"})`,
    "targets of issue 40:",
    ...Object.entries(issue).map(line),
    `met: ${met}`,
    "older absolute targets (not in met):",
    ...Object.entries(also).map(line),
  ].join("\n");
}
