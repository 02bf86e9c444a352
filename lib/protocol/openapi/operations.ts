import type { z } from "zod";
import { schemaFor } from "../endpoint-entry";
import { ENDPOINT_LIST, servedIn } from "../endpoints";
import type { Profile } from "../profiles";
import type { WireErrorCode } from "../wire-responses";

// The endpoints as the OpenAPI document describes them, made from the
// endpoint table (../endpoints.ts): per profile the request body, the success
// body and every error code the endpoint can answer with, by HTTP status
// (section 7 and the decisions). The conformance kit reads the same list.

export interface Operation {
  key: string;
  method: "get" | "post" | "put" | "delete";
  /** After the prefix; OpenAPI path template. */
  path: string;
  summary: string;
  /** Section of docs/protocol.md. */
  guide: string;
  body?: { schema: z.ZodType; required: boolean };
  /** Which query parameters (document.ts describes each set). */
  query?: "products" | "statement";
  pathId?: "product" | "order";
  success?: z.ZodType;
  /** status → codes, in addition to the codes every endpoint can answer with. */
  errors: Partial<Record<number, WireErrorCode[]>>;
}

/** Every endpoint, both profiles: D7 authentication, D30, D31, D1 internal errors; a malformed request; a body too slow (issue 22.2). */
export function commonErrors(profile: Profile): Partial<Record<number, WireErrorCode[]>> {
  return {
    400: ["bad_request"],
    401: ["unauthorized"],
    ...(profile === "P" ? { 409: ["replay_detected"] } : {}),
    408: ["request_timeout"],
    413: ["request_too_large"],
    429: ["rate_limited"],
    500: ["internal_error"],
  };
}

export function operations(profile: Profile): Operation[] {
  return ENDPOINT_LIST.filter((e) => servedIn(e, profile)).map((e) => {
    const body = e.body?.[profile];
    return {
      key: e.key,
      method: e.method.toLowerCase() as Operation["method"],
      path: e.path,
      summary: e.doc.summary,
      guide: e.doc.guide,
      ...(body ? { body: { schema: body, required: !e.body?.allowEmpty } } : {}),
      ...(e.doc.query ? { query: e.doc.query } : {}),
      ...(e.doc.pathId ? { pathId: e.doc.pathId } : {}),
      ...(e.success ? { success: schemaFor(e.success, profile) } : {}),
      errors: e.doc.errors?.(profile) ?? {},
    };
  });
}

/** All codes an operation can answer with, by status. */
export function errorsOf(profile: Profile, op: Operation): Map<number, WireErrorCode[]> {
  const out = new Map<number, WireErrorCode[]>();
  for (const table of [commonErrors(profile), op.errors]) {
    for (const [status, codes] of Object.entries(table)) {
      const s = Number(status);
      out.set(s, [...new Set([...(out.get(s) ?? []), ...(codes ?? [])])]);
    }
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}
