import { z } from "zod";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(new Date(`${s}T00:00:00Z`).getTime()));

/**
 * The portal statement's date filter: whole days (UTC), `to` inclusive, so
 * the window is [from 00:00, to+1 00:00), the statement endpoint's
 * inclusive-from, exclusive-to rule (decision 0019). A bad value is ignored.
 */
export const StatementWindowSchema = z
  .object({
    from: day.optional().catch(undefined),
    to: day.optional().catch(undefined),
    page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
  })
  .transform((w) => ({
    ...w,
    fromDate: w.from ? new Date(`${w.from}T00:00:00Z`) : undefined,
    toDate: w.to ? new Date(new Date(`${w.to}T00:00:00Z`).getTime() + 86_400_000) : undefined,
  }));
