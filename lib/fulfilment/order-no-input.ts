import { z } from "zod";

/** A site order number as an administrator or the CLI types it (orderIdByNo trims it too). */
export const OrderNoSchema = z.string().trim().min(1, "is required").max(64, "must be at most 64 characters");
