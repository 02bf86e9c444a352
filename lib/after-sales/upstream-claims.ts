import { z } from "zod";
import { CLAIM_STATES } from "../protocol/after-sales-wire";
import { pathOf } from "../protocol/endpoints";
import type { UpstreamClient } from "../upstream/upstream-client";

// Our client of an upstream's after-sales extension (docs/protocol.md
// "After-sales"). Its answers are untrusted (decision 0013): only the fields
// we act on are read, each checked; its texts (reason, note) are never kept.

const UpstreamClaimSchema = z.object({ claim_id: z.int().positive(), line: z.int().min(0), state: z.enum(CLAIM_STATES) });
export type UpstreamClaim = z.infer<typeof UpstreamClaimSchema>;

export function upstreamClaims(client: UpstreamClient) {
  return {
    open: (upstreamOrderId: number, body: { request_id: string; line: number; reason: string }) =>
      client.request(UpstreamClaimSchema, "POST", pathOf("openClaim", upstreamOrderId), body),
    list: async (upstreamOrderId: number) =>
      (await client.request(z.object({ claims: z.array(UpstreamClaimSchema) }), "GET", pathOf("listClaims", upstreamOrderId))).claims,
  };
}
