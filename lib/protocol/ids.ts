// Ids are int4 (Prisma `Int`): 1 to 2^31 − 1, on the wire (D20: a path id
// outside that range is 400 bad_request, D11) and in the database. A larger
// number is not "another id": PostgreSQL rejects it mid-query (22003) and the
// caller would see an internal error, so every id that comes from outside (a
// URL, a console form, the CLI) is checked here first. int8 ids (card keys,
// jobs) are not covered.
import { z } from "zod";

export const INT4_MAX = 2_147_483_647;

/** An id as typed in a URL or on the command line: digits only, no sign, no leading zero. */
export function isInt4IdText(text: string | undefined): text is string {
  return !!text && /^[1-9][0-9]{0,9}$/.test(text) && Number(text) <= INT4_MAX;
}

/** An id typed on the command line, into a number. */
export const Int4IdTextSchema = z.string().refine(isInt4IdText, "must be a positive whole number (an id)").transform(Number);

/** An id from a console form field (a string) or a JSON number. */
export const Int4IdSchema = z.coerce.number().int().positive().max(INT4_MAX);
