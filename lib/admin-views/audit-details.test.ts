import { describe, expect, it } from "vitest";
import { auditFacts } from "./audit-details";

describe("audit log facts", () => {
  it("issue 35.2: an amount recorded in fen is shown as an amount (20.00, not 2000), under a name in words", () => {
    expect(auditFacts({ orderId: 7, cents: "2000", reason: "broken key" })).toEqual([
      { label: "order id", value: "7" },
      { label: "amount", value: "20.00" },
      { label: "reason", value: "broken key" },
    ]);
    expect(auditFacts({ maxCostCents: 1250 })).toEqual([{ label: "max cost", value: "12.50" }]);
    expect(auditFacts({ site_name: "Shop", amount: "20.00" })).toEqual([
      { label: "site name", value: "Shop" },
      { label: "amount", value: "20.00" },
    ]);
    expect(auditFacts(null)).toEqual([]);
  });
});
