import type { z } from "zod";
import type { Profile } from "../protocol/profiles";
import { findUnstorableText } from "../protocol/storable-text";
import { parseJsonObject } from "./strict-json";
import { zodMessage } from "./zod-message";
import { appError } from "../errors";
import { isInt4IdText } from "../protocol/ids";

// Step 6 of defineEndpoint (D7, D17): the body and query of a request, and path ids.

export function readJsonBody(rawBody: string, profile: Profile, allowEmpty: boolean): Record<string, unknown> {
  if (rawBody.length === 0 && allowEmpty) return {};
  if (rawBody.length === 0) throw appError("bad_request", "request body must be a JSON object");
  return parseJsonObject(rawBody, profile);
}

/**
 * zod validation with a D17 message: the field's name, never its value. Then
 * every text in the result must be storable by PostgreSQL (issue 8.2: NUL, lone
 * surrogates), so no field of any endpoint can reach the database and fail there.
 */
export function validate<T>(schema: z.ZodType<T>, input: unknown): T {
  // reportInput: zodMessage tells a missing field from a wrong type by it (issue 35.5); the message never shows it.
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) throw appError("bad_request", zodMessage(r.error));
  const bad = findUnstorableText(r.data);
  if (bad) {
    const field = bad.path.length ? bad.path.join(".").slice(0, 200) : "body";
    const what = bad.inKey ? "field names must not contain" : "must not contain";
    throw appError("bad_request", `field "${field}": ${what} NUL or unpaired surrogate characters`);
  }
  return r.data;
}

/** D20/D11: a path id must be a positive integer, else 400 bad_request. */
export function parseIdParam(value: string | undefined, field = "id"): number {
  if (!isInt4IdText(value)) {
    throw appError("bad_request", `${field} must be a positive integer`);
  }
  return Number(value);
}

/**
 * Step 6 for the query. Downstreams send the same few query strings over and
 * over (a walk through the pages): the validated query of each is kept,
 * frozen, per profile, so a repeated one is not parsed and validated again
 * (zod's parse was the largest step of a page read after the socket's own).
 * Refused queries are not kept: they throw every time.
 */
export function queryValidator(schemas: { U: z.ZodType<unknown>; P: z.ZodType<unknown> }) {
  const valid = new Map<string, unknown>();
  return (profile: Profile, search: string): unknown => {
    const key = profile + search;
    let query = valid.get(key);
    if (query === undefined) {
      query = Object.freeze(validate(schemas[profile], Object.fromEntries(new URLSearchParams(search))));
      if (valid.size >= MAX_KEPT_QUERIES) valid.clear();
      if (search.length <= MAX_KEPT_QUERY_CHARS) valid.set(key, query);
    }
    return query;
  };
}

const MAX_KEPT_QUERIES = 1000;
const MAX_KEPT_QUERY_CHARS = 200;
