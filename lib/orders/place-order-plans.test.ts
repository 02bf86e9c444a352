import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, newPool } from "../db/client";
import { useTestDatabase } from "../testing/test-database";
import { ORDER_CONTEXT_GROUP_SQL } from "./order-context";

// Issue 40.7: the statements every order runs keep one generic plan instead of
// being planned again for each order (PostgreSQL replans a statement whose
// plan for the values at hand looks cheaper than its generic one).

let pool: ReturnType<typeof newPool>;
beforeAll(async () => {
  await useTestDatabase();
  pool = newPool({ max: 1 });
});
afterAll(async () => {
  await pool.end();
});

describe("issue 40.7: an order's statements are not planned again for every order", () => {
  it("place_order runs with plan_cache_mode = force_generic_plan (a CREATE OR REPLACE must say it again)", async () => {
    const [fn] = await db().$queryRaw<{ config: string[] | null }[]>`SELECT proconfig AS config FROM pg_proc WHERE proname = 'place_order'`;
    expect(fn.config).toContain("plan_cache_mode=force_generic_plan");
  });

  it("the grouped order-context read keeps its generic plan whatever the group's size", async () => {
    const client = await pool.connect();
    try {
      for (let run = 0; run < 10; run++) {
        const n = 1 + (run % 4);
        const ids = Array.from({ length: n }, (_, i) => i + 1);
        await client.query({
          name: "plans_test_context_group",
          text: ORDER_CONTEXT_GROUP_SQL,
          values: [ids, ids, ids.map((i) => `no-such-order-${i}`)],
        });
      }
      const {
        rows: [plans],
      } = await client.query<{ generic: string; custom: string }>(
        `SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE name = 'plans_test_context_group'`,
      );
      // The first five runs are always planned for their values; every later one must use the generic plan.
      expect(Number(plans.custom)).toBeLessThanOrEqual(5);
      expect(Number(plans.generic)).toBeGreaterThanOrEqual(5);
    } finally {
      client.release();
    }
  });
});
