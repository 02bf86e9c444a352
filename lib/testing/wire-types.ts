import type { z } from "zod";
import type { ProductDetailSchema, ProductPageSchema } from "../protocol/wire-responses";

// The answer shapes tests read with `res.json<T>()`: the protocol's own wire
// types (Profile P's are the wider), plus the one field every answer has.

/** Any answer, success or error (D1, D2): what a test reads before it knows which. */
export interface AnyAnswer {
  ok: boolean;
  error_code?: string;
  error_message?: string;
}
export type ProductPage = z.infer<typeof ProductPageSchema.P>;
export type ProductDetail = z.infer<typeof ProductDetailSchema.P>;
