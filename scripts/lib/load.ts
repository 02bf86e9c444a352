// A closed-loop load runner for the benchmark scripts: N requests, C in
// flight at a time; latency percentiles and errors as plain numbers.

export interface LoadResult {
  requests: number;
  concurrency: number;
  errors: number;
  /** Status → count for non-2xx answers and "network" for failures. */
  errorKinds: Record<string, number>;
  seconds: number;
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** `task(i)` returns true for success, false (or throws) for an error; a string names the error kind. */
export async function runLoad(n: number, c: number, task: (i: number) => Promise<true | string>): Promise<LoadResult> {
  let next = 0;
  return measure(Math.min(c, n), () => (next < n ? next++ : undefined), task);
}

/** Like runLoad, but C workers send requests back to back for `seconds` instead of N in all; task(w) is told its worker's number. */
export async function runFor(seconds: number, c: number, task: (worker: number) => Promise<true | string>): Promise<LoadResult> {
  const end = performance.now() + seconds * 1000;
  let next = 0;
  return measure(
    c,
    () => (performance.now() < end ? next++ : undefined),
    (_i, w) => task(w),
  );
}

/** C workers each take the next index until `take` says stop, timing every task. */
async function measure(
  c: number,
  take: () => number | undefined,
  task: (i: number, worker: number) => Promise<true | string>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const worker = async (w: number) => {
    for (let i = take(); i !== undefined; i = take()) {
      const t0 = performance.now();
      const outcome = await task(i, w).catch((err) => `network:${(err as { code?: string }).code ?? "error"}`);
      latencies.push(performance.now() - t0);
      if (outcome !== true) {
        errors++;
        errorKinds[outcome] = (errorKinds[outcome] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: c }, (_, w) => worker(w)));
  return summarize(latencies, c, errors, errorKinds, (performance.now() - started) / 1000);
}

function summarize(latencies: number[], c: number, errors: number, errorKinds: Record<string, number>, seconds: number): LoadResult {
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requests: sorted.length,
    concurrency: c,
    errors,
    errorKinds,
    seconds: round(seconds),
    requests_per_second: round(sorted.length / seconds),
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted.at(-1) ?? 0),
  };
}

/** The p-th percentile of ascending `sorted` (0 when empty). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** `--name value` or `--name=value`, else the environment variable, else the default. */
export function arg(name: string, env: string, fallback?: string): string | undefined {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1];
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
  }
  return process.env[env] ?? fallback;
}
