import { z } from "zod";
import type { Profile } from "./profiles";
import { AmountSchema } from "./wire-responses";
import { INT4_MAX } from "./ids";

// Extension (issue 26.3, docs/protocol.md "After-sales", decision 0043): a
// claim that one delivered line is defective, in both profiles. The request
// body and the answers, shared by the server, the typed client, the OpenAPI
// document, the conformance kit and our own client of an upstream.

export const CLAIM_STATES = ["open", "replaced", "refunded", "rejected"] as const;
export const MAX_CLAIM_REASON = 500;
export const MAX_LINE_INDEX = 1_000_000;

const requestId = z.string().min(1, "must not be empty").max(128, "must be at most 128 characters");
const line = z.int("must be an integer").min(0, "must be 0 or more").max(MAX_LINE_INDEX, `must be at most ${MAX_LINE_INDEX}`);
const reason = z.string().trim().min(1, "must not be empty").max(MAX_CLAIM_REASON, `must be at most ${MAX_CLAIM_REASON} characters`);

/** POST {prefix}/orders/{id}/after-sales. P strict (D17), U ignores unknown fields. */
export const OpenClaimBodySchema = {
  P: z.strictObject({ request_id: requestId, line, reason }),
  U: z.object({ request_id: requestId, line, reason }),
} satisfies Record<Profile, z.ZodType>;

const id = z.int().min(1).max(INT4_MAX);

/** One claim as its buyer sees it. */
export const ClaimSchema = z.object({
  claim_id: id,
  order_id: id,
  request_id: z.string(),
  line: z.int().min(0),
  reason: z.string(),
  state: z.enum(CLAIM_STATES),
  claimed_data: z.string().meta({ description: "the line as it was when claimed (after a replacement: the defective key)" }),
  created_at: z.iso.datetime({ precision: 3 }),
  resolved_at: z.iso.datetime({ precision: 3 }).nullable(),
  resolution: z
    .object({
      action: z.enum(["replace", "refund", "reject"]),
      refund_amount: AmountSchema.optional().meta({ description: "refund only: what was given back" }),
      note: z.string().meta({ description: 'reject: why; otherwise a note or ""' }),
    })
    .nullable(),
});
export type ClaimWire = z.infer<typeof ClaimSchema>;

/** POST answer: the claim (the original one for a repeated request_id). */
export const ClaimOpenedSchema = z.object({ ok: z.literal(true), ...ClaimSchema.shape });

/** GET answer: every claim of the order, oldest first, and what was refunded in all. */
export const ClaimListSchema = z.object({
  ok: z.literal(true),
  order_id: id,
  refunded_amount: AmountSchema,
  claims: z.array(ClaimSchema),
});
