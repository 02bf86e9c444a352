import { pathOf } from "../../lib/protocol/endpoints";
import type { AnyAnswer, ClaimListAnswer, ClaimOpenedAnswer } from "./answers";
import type { Check } from "./checks-auth";
import { createdOrder } from "./checks-orders";
import { type Context, type Reply, expectError, expectOk, expectThat } from "./context";

// The after-sales extension (docs/protocol.md "After-sales", issue 26.3).
// These checks change nothing: an unknown order, a malformed body. A server
// without the extension answers 404 not_found, and the checks pass as "not
// offered": the specification does not require it. With --allow-orders, one
// more claims a line of the order the run bought (afterSalesOrderChecks).

const UNKNOWN_ORDER = 2147483000;

/** The reply, or null when the server does not offer the extension (its 404 not_found is no shape fault). */
async function send<T = AnyAnswer>(
  ctx: Context,
  method: "GET" | "POST",
  body?: string,
  orderId = UNKNOWN_ORDER,
): Promise<Reply<T & Partial<AnyAnswer>> | null> {
  const seen = ctx.shapeProblems.length;
  const r = await ctx.send<T & Partial<AnyAnswer>>({ method, path: pathOf(method === "GET" ? "listClaims" : "openClaim", orderId), body });
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

/**
 * With --allow-orders (after the order checks): claims line 0 of the run's
 * delivered order, which leaves one open claim for the supplier's
 * administrator to reject. Passes as "not offered" on a 404 not_found, or on
 * 409 after_sales_closed (that product has no after-sales window).
 */
export const afterSalesOrderChecks: Check[] = [
  {
    name: "extension: a claim of a delivered line opens once per request_id; the line again is 409 line_already_claimed; a line past delivery_data is 400; GET lists it",
    run: async (ctx) => {
      const order = createdOrder(ctx);
      if (order?.status !== "delivered") return; // nothing delivered to claim (the order checks report why)
      expectThat(order.fulfillment, "delivered without fulfillment");
      const lines = order.fulfillment.delivery_data.length;
      const body = (requestId: string, line = 0) =>
        JSON.stringify({ request_id: requestId, line, reason: "conformance check: please reject" });
      const requestId = `conformance-${ctx.opts.profile}-${Date.now()}`;
      const open = await send<ClaimOpenedAnswer>(ctx, "POST", body(requestId), order.order_id);
      if (!open || (open.status === 409 && open.json?.error_code === "after_sales_closed")) return;
      expectOk(open, "POST after-sales");
      expectThat(
        open.json.order_id === order.order_id && open.json.line === 0 && open.json.state === "open",
        "the claim is not an open claim of line 0",
      );
      const again = await send<ClaimOpenedAnswer>(ctx, "POST", body(requestId), order.order_id);
      expectThat(again?.json?.claim_id === open.json.claim_id, "the same request_id again did not answer the same claim");
      const other = await send(ctx, "POST", body(`${requestId}-b`), order.order_id);
      expectThat(other, "POST stopped being offered");
      expectError(other, 409, "line_already_claimed");
      const past = await send(ctx, "POST", body(`${requestId}-c`, lines), order.order_id);
      expectThat(past, "POST stopped being offered");
      expectError(past, 400, "bad_request");
      const list = await send<ClaimListAnswer>(ctx, "GET", undefined, order.order_id);
      expectThat(list, "GET is not offered although POST is");
      expectOk(list, "GET after-sales");
      const listed = list.json.claims.find((c) => c.claim_id === open.json.claim_id);
      expectThat(listed?.state === "open" && listed.line === 0, "GET does not list the open claim");
    },
  },
];
