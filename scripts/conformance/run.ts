import { authChecks, type Check } from "./checks-auth";
import { catalogChecks } from "./checks-catalog";
import { orderChecks } from "./checks-orders";
import { statementChecks } from "./checks-statement";
import { afterSalesChecks, afterSalesOrderChecks } from "./checks-after-sales";
import { type CheckResult, type ConformanceOptions, Context, expectThat } from "./context";

// Runs every check against one server and profile; each check is independent
// and reports pass or fail with a one-line reason. The last two checks look
// back over every response the run received.

export interface ConformanceReport {
  target: { baseUrl: string; profile: string; allowOrders: boolean };
  checks: CheckResult[];
  passed: number;
  failed: number;
}

const finalChecks: Check[] = [
  {
    name: "D1: every response carries X-Request-Id",
    run: (ctx) =>
      expectThat(
        ctx.missingRequestId.length === 0,
        `missing on ${ctx.missingRequestId.length}: ${ctx.missingRequestId.slice(0, 3).join("; ")}`,
      ),
  },
  {
    name: "OpenAPI: every response matches the document for its operation and status (D1 bodies, shapes)",
    run: (ctx) =>
      expectThat(ctx.shapeProblems.length === 0, `${ctx.shapeProblems.length} problem(s): ${ctx.shapeProblems.slice(0, 3).join("; ")}`),
  },
];

export async function runConformance(opts: ConformanceOptions, onResult?: (r: CheckResult) => void): Promise<ConformanceReport> {
  if (opts.allowOrders && !opts.skuId) throw new Error("--allow-orders needs --sku-id");
  const ctx = new Context(opts);
  const checks = [
    ...authChecks,
    ...catalogChecks,
    ...statementChecks,
    ...afterSalesChecks,
    ...(opts.allowOrders ? [...orderChecks, ...afterSalesOrderChecks] : []),
    ...finalChecks,
  ];
  const results: CheckResult[] = [];
  for (const check of checks) {
    let result: CheckResult;
    try {
      await check.run(ctx);
      result = { name: check.name, ok: true };
    } catch (err) {
      result = { name: check.name, ok: false, detail: err instanceof Error ? err.message : String(err) };
    }
    results.push(result);
    onResult?.(result);
  }
  if (opts.profile === "P") await ctx.settle();
  const failed = results.filter((r) => !r.ok).length;
  return {
    target: { baseUrl: opts.baseUrl, profile: opts.profile, allowOrders: !!opts.allowOrders },
    checks: results,
    passed: results.length - failed,
    failed,
  };
}

export const formatResult = (r: CheckResult) => `${r.ok ? "PASS" : "FAIL"}  ${r.name}${r.detail ? `: ${r.detail}` : ""}`;
