// What an operator types to adjust a buyer's points (console, CLI). Kept free
// of database imports so the CLI can check its arguments without loading the services.
import { z } from "zod";
import { AmountInputSchema } from "../protocol/amount";

/** The change: any sign, never zero (a zero adjustment would be a ledger row that means nothing). */
export const PointsDeltaSchema = AmountInputSchema.refine((cents) => cents !== 0n, "must not be zero");
/** Why, as the operator types it (the caller prefixes "admin: " or "cli: " for the ledger row). */
export const AdjustReasonSchema = z.string().trim().min(1, "is required").max(200, "must be at most 200 characters");
