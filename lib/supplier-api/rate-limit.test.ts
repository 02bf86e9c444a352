import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { useTestDatabase } from "../testing/test-database";
import { consumeRateLimit } from "./rate-limit";

// D31 with reserved blocks: the shared counter (what every instance sees) is
// charged before a request is admitted, so the limit holds across instances.

let client: pg.Client;
beforeAll(async () => {
  const url = await useTestDatabase();
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

const shared = async (scope: string, id: string) =>
  Number(
    (await client.query<{ points: number }>(`SELECT points FROM rate_limit.counters WHERE key = $1`, [`supplier-api:${scope}:${id}`]))
      .rows[0]?.points ?? 0,
  );

async function admitted(id: string, perMinute: number, attempts: number): Promise<{ ok: number; refused: AppError[] }> {
  const results = await Promise.allSettled(Array.from({ length: attempts }, async () => await consumeRateLimit("key", id, perMinute)));
  return {
    ok: results.filter((r) => r.status === "fulfilled").length,
    refused: results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as AppError),
  };
}

describe("consumeRateLimit", () => {
  it("a limit under 200/min is counted request by request in the shared store", async () => {
    const id = crypto.randomUUID();
    const { ok, refused } = await admitted(id, 5, 7);
    expect(ok).toBe(5);
    expect(refused.map((e) => e.code)).toEqual(["rate_limited", "rate_limited"]);
    expect(Number(refused[0].headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(await shared("key", id)).toBe(7);
  });

  it("a high limit is reserved in blocks of 1 %: never more admitted than the shared counter holds, nor than the limit", async () => {
    const id = crypto.randomUUID();
    const first = await admitted(id, 1000, 25);
    expect(first.ok).toBe(25);
    expect(await shared("key", id)).toBe(30); // three blocks of 10, reserved before use
    const rest = await admitted(id, 1000, 1000);
    expect(first.ok + rest.ok).toBe(1000);
    expect(rest.refused.every((e) => e.code === "rate_limited")).toBe(true);
    expect(await shared("key", id)).toBeGreaterThanOrEqual(1000);
  });
});
