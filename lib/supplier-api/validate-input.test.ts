import { describe, expect, it } from "vitest";
import { ProductsQuerySchema } from "../protocol/catalog-query";
import { AppError } from "../errors";
import { queryValidator } from "./validate-input";

describe("queryValidator (step 6 for the query, D17)", () => {
  it("keeps each query string's validated query, frozen, per profile; refusals and long queries are not kept", () => {
    const valid = queryValidator(ProductsQuerySchema);
    const first = valid("P", "?page=2&page_size=50");
    expect(first).toMatchObject({ page: 2, page_size: 50 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(valid("P", "?page=2&page_size=50")).toBe(first); // kept: not parsed again
    expect(valid("U", "?page=2&page_size=50")).not.toBe(first); // another profile, another schema
    // P is strict (D17): refused every time, never kept as valid.
    for (let i = 0; i < 2; i++) expect(() => valid("P", "?page=0")).toThrow(AppError);
    // U clamps instead of refusing.
    expect(valid("U", "?page=0")).toMatchObject({ page: 1 });
    const long = `?page=3&padding=${"x".repeat(300)}`;
    expect(valid("P", long)).toEqual(valid("P", long));
    expect(valid("P", long)).not.toBe(valid("P", long));
  });
});
