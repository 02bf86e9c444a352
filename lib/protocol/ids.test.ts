import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { parseOrderFilters } from "../admin-views/order-filters";
import { saveCategory } from "../catalog/save-category";
import { saveSku } from "../catalog/save-sku";
import { AppError } from "../errors";
import { Int4IdSchema, Int4IdTextSchema, isInt4IdText } from "./ids";

describe("one int4 id rule (issue 9.3, D20)", () => {
  it("issue 9.3: ids run from 1 to 2^31 − 1, as text and from forms", () => {
    expect(["1", "2147483647"].map(isInt4IdText)).toEqual([true, true]);
    expect(["0", "01", "-1", "1.0", "2147483648", "99999999999", "", " 1"].map(isInt4IdText)).toEqual(Array(8).fill(false));
    expect(Int4IdTextSchema.parse("42")).toBe(42);
    expect(Int4IdSchema.parse("2147483647")).toBe(2147483647);
    expect(Int4IdSchema.safeParse("2147483648").success).toBe(false);
    expect(Int4IdSchema.safeParse("0").success).toBe(false);
  });

  it("issue 9.3: the orders table's product filter drops an id past int4 instead of sending it to PostgreSQL", () => {
    expect(parseOrderFilters({ product: "2147483647" }).productId).toBe(2147483647);
    expect(parseOrderFilters({ product: "2147483648" }).productId).toBeUndefined();
  });

  it("issue 9.3: the catalogue console services refuse an id past int4 as bad input (400), before the database", async () => {
    const admin = { actor: SYSTEM_ACTOR };
    const sku = { productId: "2147483648", skuCode: "X1", specValues: {}, price: "1.00", isActive: true, stockQuantity: null } as never;
    const category = { slug: "games", name: { en: "Games" }, sortOrder: 0, parentId: 2147483648 } as never;
    for (const p of [saveSku(sku, admin), saveCategory(category, admin)]) {
      const err = await p.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("bad_request");
    }
  });
});
