import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/lib/testing/test-database";

// `npm run bench:card-key-upload` end to end, two rounds on the test
// database: it uploads 20,000 keys a round through the console's services
// and prints the promised JSON (issue 13.3).
describe("bench:card-key-upload", () => {
  let url: string;
  beforeAll(async () => {
    url = await useTestDatabase();
  });

  const bench = (...args: string[]) =>
    spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/bench-card-key-upload.ts", ...args], {
      env: { ...process.env, BENCH_DATABASE_URL: url },
      encoding: "utf8",
      timeout: 120_000,
    });

  it("prints each round's preview and confirm of 20,000 keys, the medians and the 50,000 keys/s target", () => {
    const run = bench("--rounds", "2");
    expect(run.status, run.stderr).toBe(0);
    type Round = { keys: number; confirm_keys_per_second: number; confirm_ms: number };
    const out = JSON.parse(run.stdout) as { rounds: Round[]; target: unknown; median: Round };
    expect(out.rounds).toHaveLength(2);
    for (const round of out.rounds) {
      expect(round.keys).toBe(20_000);
      // confirm_ms is rounded to the millisecond, keys/s is not: within 1 %.
      expect(Math.abs((round.confirm_keys_per_second * round.confirm_ms) / 1000 - 20_000)).toBeLessThan(200);
    }
    expect(out.target).toEqual({ confirm_keys_per_second: 50_000, met: out.median.confirm_keys_per_second >= 50_000 });
  });

  it("refuses a round count that is not a whole number from 1 to 100", () => {
    const run = bench("--rounds", "0");
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/--rounds must be a whole number/);
  });
});
