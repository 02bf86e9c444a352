import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { AppError } from "../errors";
import { makeBuyer, makeCategory } from "../testing/factories";
import { useTestDatabase } from "../testing/test-database";
import { changeBalanceAndCommit } from "./change-balance";

// The debit that createOrder sends with its COMMIT in one message: all or nothing, ledger == balance.

beforeAll(async () => {
  await useTestDatabase();
});

const balance = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).balanceCents;
const ledgerSum = async (userId: string) => (await db().pointsLedger.aggregate({ where: { userId }, _sum: { deltaCents: true } }))._sum.deltaCents;

describe("changeBalanceAndCommit", () => {
  it("commits the preceding statements, the balance change and its ledger row together", async () => {
    const buyer = await makeBuyer({ pointsCents: 1000n });
    const slug = `cat-${crypto.randomBytes(4).toString("hex")}`;
    await db().$transaction(async (tx) => {
      await changeBalanceAndCommit(tx, { userId: buyer.user.id, deltaCents: -300n, reason: "it's a test" }, [
        `INSERT INTO "Category" ("slug", "name", "updatedAt") VALUES ('${slug}', '{}', now())`,
      ]);
    });
    expect(await balance(buyer.user.id)).toBe(700n);
    expect(await ledgerSum(buyer.user.id)).toBe(700n);
    expect(await db().pointsLedger.findFirst({ where: { userId: buyer.user.id, deltaCents: -300n } })).toMatchObject({ reason: "it's a test", balanceAfterCents: 700n });
    expect(await db().category.count({ where: { slug } })).toBe(1);
  });

  it("insufficient_balance or an unknown user commits nothing, not even the transaction's earlier writes", async () => {
    const buyer = await makeBuyer({ pointsCents: 100n });
    for (const [userId, code] of [[buyer.user.id, "insufficient_balance"], [crypto.randomUUID(), "user_not_found"]] as const) {
      const category = await makeCategory();
      const err = await db()
        .$transaction(async (tx) => {
          await tx.category.update({ where: { id: category.id }, data: { sortOrder: 99 } });
          await changeBalanceAndCommit(tx, { userId, deltaCents: -101n, reason: "too much" });
        })
        .then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe(code);
      expect((await db().category.findUniqueOrThrow({ where: { id: category.id } })).sortOrder).toBe(0);
    }
    expect(await balance(buyer.user.id)).toBe(100n);
    expect(await ledgerSum(buyer.user.id)).toBe(100n);
  });

  it("refuses values it cannot inline safely", async () => {
    await expect(db().$transaction((tx) => changeBalanceAndCommit(tx, { userId: "x'; DROP TABLE \"User\"; --", deltaCents: 1n, reason: "r" }))).rejects.toThrow(TypeError);
  });
});
