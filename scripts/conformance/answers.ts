import type { z } from "zod";
import type { ClaimListSchema, ClaimOpenedSchema } from "../../lib/protocol/after-sales-wire";
import type {
  AccountSchema,
  CategoriesSchema,
  OrderCreatedSchema,
  OrderReadSchema,
  ProductPageSchema,
  StatementSchema,
} from "../../lib/protocol/wire-responses";

// The answers the checks read, named after the protocol's own wire schemas
// (Profile P's, the wider). Declared, not validated: the server under test may
// answer anything, so a check reads what it compares with care (`?.`), and
// Context.send reports every answer's deviations from the OpenAPI document.

/** Any answer, success or error (D1): what a check reads before it knows which. */
export interface AnyAnswer {
  ok: boolean;
  error_code?: string;
  error_message?: string;
}
export type PingAnswer = z.infer<typeof AccountSchema>;
export type CategoriesAnswer = z.infer<typeof CategoriesSchema>;
export type ProductPageAnswer = z.infer<typeof ProductPageSchema.P>;
export type ProductAnswer = ProductPageAnswer["items"][number];
export type OrderCreatedAnswer = z.infer<typeof OrderCreatedSchema.P>;
/** An order's read (GET /orders/{id}, either profile). */
export type OrderReadAnswer = z.infer<typeof OrderReadSchema.U> | z.infer<typeof OrderReadSchema.P>;
export type StatementAnswer = z.infer<typeof StatementSchema>;
export type ClaimOpenedAnswer = z.infer<typeof ClaimOpenedSchema>;
export type ClaimListAnswer = z.infer<typeof ClaimListSchema>;
