import type { z } from "zod";
import type { Profile } from "./profiles";
import type { WireErrorCode } from "./wire-responses";

/** A schema for both profiles alike, or one per profile. */
export type ProfileSchema = z.ZodType | { U: z.ZodType; P: z.ZodType };

/**
 * One entry of the endpoint table (./endpoints.ts). Everything a client, the
 * router, the OpenAPI document and the tests need to know of an endpoint;
 * its handler is bound by key in lib/supplier-api/endpoints.ts (decision 0081).
 */
export interface EndpointEntry {
  /** The log line's and metrics' `endpoint` ("orders.create"); two methods of one handler share it. */
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** After the prefix, as an OpenAPI path template: `{id}` is a path parameter, anything else literal. */
  path: string;
  /** The profiles that have it (default both); under the other profile's prefixes the path is 404 not_found. */
  profiles?: readonly Profile[];
  /**
   * The request body, per profile, checked by the pipeline (D17) and described
   * by OpenAPI. A profile without a schema ignores the body (D23: cancel in U).
   */
  body?: { U?: z.ZodType; P?: z.ZodType; allowEmpty?: boolean };
  /** Object.fromEntries(searchParams), per profile. */
  query?: { U: z.ZodType; P: z.ZodType };
  /** The 200 body; none when the endpoint never succeeds (cancel, D23). The typed client parses with it. */
  success?: ProfileSchema;
  /**
   * The same bytes may be sent again after a network error, a 5xx or a 429:
   * the server answers the original (D18, request_id). The typed client does so.
   */
  resend?: true;
  /** OpenAPI operation metadata (lib/protocol/openapi/document.ts). */
  doc: {
    summary: string;
    /** Section of docs/protocol.md (its heading's anchor); scripts/structure.test.ts checks it names this method and path. */
    guide: string;
    /** Which query parameters document.ts describes. */
    query?: "products" | "statement";
    /** What `{id}` names. */
    pathId?: "product" | "order";
    /** status → codes, beyond the ones every endpoint can answer with (operations.ts commonErrors). */
    errors?: (profile: Profile) => Partial<Record<number, WireErrorCode[]>>;
  };
  /**
   * A request that passes authentication and changes nothing (`{id}` becomes
   * 999999, an unknown id; the body names an unknown SKU or a refused URL):
   * the security suite and the router tests send it to every endpoint.
   */
  sampleBody?: (unique: string) => string;
}

/** The schema of `profile`. */
export const schemaFor = (s: ProfileSchema, profile: Profile): z.ZodType => ("U" in s && "P" in s ? s[profile] : s);
