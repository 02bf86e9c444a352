import { SYSTEM_ACTOR } from "../audit/actor";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/test-database";
import { makeBuyer } from "../testing/factories";
import { db } from "../db/client";
import { AppError } from "../errors";
import { changeBalance } from "./change-balance";
import { adjustPoints } from "../users/adjust-points";
import { reconcilePoints } from "./reconcile-points";

describe("points ledger invariant", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("200 concurrent debits: exactly the affordable ones succeed, the balance never goes negative and equals the ledger sum", async () => {
    const { user } = await makeBuyer({ pointsCents: 10_000n }); // 100.00
    let sampling = true;
    const seen: bigint[] = [];
    const sampler = (async () => {
      while (sampling) {
        seen.push((await db().user.findUniqueOrThrow({ where: { id: user.id } })).balanceCents);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        db().$transaction((tx) => changeBalance(tx, { userId: user.id, deltaCents: -100n, reason: `debit ${i}` }), {
          maxWait: 60_000,
          timeout: 60_000,
        }),
      ),
    );
    sampling = false;
    await sampler;

    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(100);
    expect(refused).toHaveLength(100);
    for (const r of refused) expect((r.reason as AppError).code).toBe("insufficient_balance");

    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.balanceCents).toBe(0n);
    expect(seen.every((b) => b >= 0n)).toBe(true);

    const ledger = await db().pointsLedger.findMany({ where: { userId: user.id }, orderBy: { id: "asc" } });
    expect(ledger).toHaveLength(101); // opening balance + 100 debits
    expect(ledger.reduce((sum, row) => sum + row.deltaCents, 0n)).toBe(after.balanceCents);
    // Each debit saw the previous one: running totals are 99.00, 98.00, … 0.00, each once.
    expect(ledger.slice(1).map((r) => r.balanceAfterCents)).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(9_900 - i * 100)));
    expect(ledger.every((r) => r.balanceAfterCents >= 0n)).toBe(true);

    expect(await reconcilePoints()).toMatchObject({ ok: true, mismatches: [] });
  });

  it("an operator adjustment leaves a ledger row and refuses to go below zero", async () => {
    const { user } = await makeBuyer({ pointsCents: 300n });
    expect(await adjustPoints({ email: user.email, deltaCents: 1_000n, reason: "goodwill", actor: SYSTEM_ACTOR })).toBe(1_300n);
    await expect(adjustPoints({ email: user.email, deltaCents: -1_301n, reason: "too much", actor: SYSTEM_ACTOR })).rejects.toThrow(
      /below zero/,
    );
    expect(await adjustPoints({ email: user.email, deltaCents: -1_300n, reason: "all of it", actor: SYSTEM_ACTOR })).toBe(0n);
    const rows = await db().pointsLedger.findMany({ where: { userId: user.id }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.deltaCents, r.balanceAfterCents, r.reason])).toEqual([
      [300n, 300n, "opening balance"],
      [1_000n, 1_300n, "goodwill"],
      [-1_300n, 0n, "all of it"],
    ]);
  });

  it("reconcile reports a cached balance that drifted from the ledger", async () => {
    const { user } = await makeBuyer({ pointsCents: 500n });
    // Bypass changeBalance on purpose, as a bug or a hand edit would.
    await db().$executeRaw`UPDATE "User" SET "balanceCents" = 700 WHERE "id" = ${user.id}::uuid`;
    const report = await reconcilePoints();
    expect(report.ok).toBe(false);
    expect(report.usersChecked).toBeGreaterThanOrEqual(3);
    expect(report.mismatches).toEqual([
      { userId: user.id, email: user.email, balanceCents: 700n, ledgerSumCents: 500n, lastBalanceAfterCents: 500n },
    ]);
    await db().$executeRaw`UPDATE "User" SET "balanceCents" = 500 WHERE "id" = ${user.id}::uuid`;
    expect((await reconcilePoints()).ok).toBe(true);
  });
});
