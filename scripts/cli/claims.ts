// After-sales (issue 26.3): the claims queue, resolving a claim, and partial refunds without a claim.
import { z } from "zod";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { formatAmount, isAmount, parseAmount } from "../../lib/protocol/amount";
import { Int4IdTextSchema } from "../../lib/protocol/ids";
import { AfterSalesHoursTextSchema, AfterSalesReplacesTextSchema } from "../../lib/after-sales/set-after-sales-hours";
import { command } from "./command";

const ClaimStateSchema = z.enum(["open", "replaced", "refunded", "rejected"]);

export const commands = {
  "claim:list": command({
    usage: "claim:list [--state open|replaced|refunded|rejected]",
    options: { state: { type: "string" } },
    input: (v) => v,
    schema: z.object({ state: ClaimStateSchema.optional() }),
    run: async (a) => {
      const { listClaims } = await import("../../lib/after-sales/list-claims");
      // Lines stay masked: a claimed key is shown only by an audited reveal in the console.
      const claims = await listClaims({ state: a.state });
      return {
        claims: claims.map((c) => ({
          id: c.id,
          order_no: c.orderNo,
          line: c.line,
          state: c.state,
          reason: c.reason,
          created_at: c.createdAt.toISOString(),
          resolved_by: c.resolvedBy,
          refund: c.refundCents === null ? null : formatAmount(c.refundCents),
          upstream: c.upstreamState,
          replacement: c.replacementNote,
        })),
      };
    },
  }),
  "claim:resolve": command({
    usage: "claim:resolve --id N --replace|--refund|--reject [--reason R] [--replacement LINE]",
    options: {
      id: { type: "string" },
      replace: { type: "boolean" },
      refund: { type: "boolean" },
      reject: { type: "boolean" },
      reason: { type: "string" },
      replacement: { type: "string" },
    },
    input: (v) => ({
      id: v.id,
      action: (["replace", "refund", "reject"] as const).filter((k) => v[k] === true),
      reason: v.reason,
      replacement: v.replacement,
    }),
    schema: z
      .object({
        id: z
          .string()
          .regex(/^[1-9][0-9]{0,9}$/, "must be a claim id")
          .transform(Number),
        action: z
          .array(z.enum(["replace", "refund", "reject"]))
          .length(1, "give exactly one of --replace, --refund, --reject")
          .transform((a) => a[0]),
        reason: z.string().trim().min(1).max(200, "must be at most 200 characters").optional(),
        replacement: z.string().trim().min(1).max(10_000).optional(),
      })
      .refine((v) => v.action !== "reject" || v.reason, { message: "is required with --reject", path: ["reason"] }),
    run: async (a) => {
      const { resolveClaim } = await import("../../lib/after-sales/resolve-claim");
      const c = await resolveClaim({ claimId: a.id, action: a.action, note: a.reason, replacement: a.replacement, actor });
      return {
        id: c.id,
        order_no: c.orderNo,
        line: c.line,
        state: c.state,
        refund: c.refundCents === null ? null : formatAmount(c.refundCents),
        // Issue 26.3: a replace bought from an upstream source leaves the claim open until the key arrives.
        replacement: c.replacementNote,
      };
    },
  }),
  "order:refund": command({
    usage: "order:refund --order-no N (--lines 0,2 | --amount 1.00) --reason R",
    options: { "order-no": { type: "string" }, lines: { type: "string" }, amount: { type: "string" }, reason: { type: "string" } },
    input: (v) => v,
    schema: z
      .object({
        "order-no": z.string().trim().min(1).max(64),
        lines: z
          .string()
          .regex(/^[0-9]{1,7}(,[0-9]{1,7})*$/, "must be line numbers like 0,2")
          .transform((s) => s.split(",").map(Number))
          .optional(),
        amount: z
          .string()
          .refine((v) => isAmount(v) && parseAmount(v) > 0n, "must be an amount above 0.00 with at most two decimals, like 1.50")
          .optional(),
        reason: z.string().trim().min(1).max(200, "must be at most 200 characters"),
      })
      .refine((v) => (v.lines === undefined) !== (v.amount === undefined), { message: "give either --lines or --amount", path: ["lines"] }),
    run: async (a) => {
      const { refundOrderPart } = await import("../../lib/after-sales/refund-order-part");
      const r = await refundOrderPart({ orderNo: a["order-no"], lines: a.lines, amount: a.amount, reason: a.reason, actor });
      return { order_id: r.orderId, order_no: r.orderNo, refunded: r.refunded, refunded_total: r.refundedTotal };
    },
  }),
  // Issue 26.3: the after-sales window of one product (the console's product form sets it too);
  // issue 33.4: beside it, how many times a line may be replaced within it.
  "product:after-sales": command({
    usage:
      "product:after-sales --product ID --hours N [--replaces N]   (hours after delivery a line may be claimed, 0 = no after-sales; times one line may be replaced within them, default 1, 0 = refund only)",
    options: { product: { type: "string" }, hours: { type: "string" }, replaces: { type: "string" } },
    input: (v) => v,
    schema: z.object({ product: Int4IdTextSchema, hours: AfterSalesHoursTextSchema, replaces: AfterSalesReplacesTextSchema.optional() }),
    run: async (a) => {
      const { setAfterSalesHours } = await import("../../lib/after-sales/set-after-sales-hours");
      const r = await setAfterSalesHours({ productId: a.product, hours: a.hours, replaces: a.replaces, actor });
      return { product_id: r.productId, slug: r.slug, after_sales_hours: r.afterSalesHours, after_sales_replaces: r.afterSalesReplaces };
    },
  }),
};
