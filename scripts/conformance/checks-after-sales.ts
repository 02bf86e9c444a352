import { pathOf } from "../../lib/protocol/endpoints";
import type { Check } from "./checks-auth";
import { type Context, type Reply, expectError, expectThat } from "./context";

// The after-sales extension (docs/protocol.md "After-sales", issue 26.3).
// These checks change nothing: an unknown order, a malformed body. A server
// without the extension answers 404 not_found, and the checks pass as "not
// offered": the specification does not require it.

const UNKNOWN_ORDER = 2147483000;

/** The reply, or null when the server does not offer the extension (its 404 not_found is no shape fault). */
async function send(ctx: Context, method: "GET" | "POST", body?: string): Promise<Reply | null> {
  const seen = ctx.shapeProblems.length;
  const r = await ctx.send({ method, path: pathOf(method === "GET" ? "listClaims" : "openClaim", UNKNOWN_ORDER), body });
  if (r.status === 404 && r.json?.error_code === "not_found") {
    ctx.shapeProblems.splice(seen);
    return null;
  }
  return r;
}

export const afterSalesChecks: Check[] = [
  {
    name: "extension: after-sales of an unknown order is 404 order_not_found (D20), for GET and POST",
    run: async (ctx) => {
      const list = await send(ctx, "GET");
      if (!list) return;
      expectError(list, 404, "order_not_found");
      const open = await send(
        ctx,
        "POST",
        JSON.stringify({ request_id: `conformance-${Date.now()}`, line: 0, reason: "conformance check" }),
      );
      expectThat(open, "POST is not offered although GET is");
      expectError(open, 404, "order_not_found");
    },
  },
  {
    name: "extension: an after-sales claim without request_id, or with a negative line, is 400 bad_request (D17)",
    run: async (ctx) => {
      const missing = await send(ctx, "POST", JSON.stringify({ line: 0, reason: "conformance check" }));
      if (!missing) return;
      expectError(missing, 400, "bad_request");
      const negative = await send(ctx, "POST", JSON.stringify({ request_id: "conformance", line: -1, reason: "conformance check" }));
      expectThat(negative, "POST stopped being offered");
      expectError(negative, 400, "bad_request");
      if (ctx.opts.profile === "P") {
        const unknown = await send(ctx, "POST", JSON.stringify({ request_id: "conformance", line: 0, reason: "x", extra: 1 }));
        expectThat(unknown, "POST stopped being offered");
        expectError(unknown, 400, "bad_request");
      }
    },
  },
];
