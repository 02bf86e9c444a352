import { listOrderClaims } from "../../after-sales/list-claims";
import { openClaim } from "../../after-sales/open-claim";
import { ENDPOINTS } from "../../protocol/endpoints";
import { claimListWire, claimWire } from "../../serializers/claim";
import { defineEndpoint, parseIdParam } from "../define-endpoint";

// Extension, both profiles (issue 26.3, docs/protocol.md "After-sales",
// decision 0043): a buyer's claim of one delivered line, and the claims of an order.

/** POST {prefix}/orders/{id}/after-sales: idempotent per key on request_id. */
export const openClaimEndpoint = defineEndpoint({
  ...ENDPOINTS.openClaim,
  handler: async (ctx) => {
    const { claim } = await openClaim({
      credentialId: ctx.credential.id,
      orderId: parseIdParam(ctx.params.id),
      requestId: ctx.body.request_id,
      line: ctx.body.line,
      reason: ctx.body.reason,
    });
    return { ok: true, ...claimWire(claim) };
  },
});

/** GET {prefix}/orders/{id}/after-sales: own orders only (D20). */
export const listClaimsEndpoint = defineEndpoint({
  ...ENDPOINTS.listClaims,
  handler: async (ctx) => claimListWire(await listOrderClaims({ credentialId: ctx.credential.id, orderId: parseIdParam(ctx.params.id) })),
});
