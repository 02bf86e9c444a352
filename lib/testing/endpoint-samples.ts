import { ENDPOINT_LIST } from "../protocol/endpoints";
import type { Profile } from "../protocol/profiles";

// One harmless request per entry of the endpoint table
// (lib/protocol/endpoints.ts): it passes authentication and changes nothing
// (unknown ids, an unknown SKU, a refused URL). The security suite, the edge
// and router tests and the fuzz generators iterate this list, so an endpoint
// added to the table is covered by them without a line here.

export interface EndpointSpec {
  /** The table's key. */
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path after the prefix, for a harmless request ({id} is 999999). */
  path: string;
  /** Body of the harmless request ("" for none); may use a unique token. */
  body: (unique: string) => string;
  /** The profiles that have it (default both); under the others' prefixes its path is 404 not_found. */
  profiles?: readonly Profile[];
}

export const SUPPLIER_ENDPOINTS: readonly EndpointSpec[] = ENDPOINT_LIST.map((e) => ({
  name: e.key,
  method: e.method,
  path: e.path.replace("{id}", "999999"),
  body: e.sampleBody ?? (() => ""),
  profiles: e.profiles,
}));

export { servedIn } from "../protocol/endpoints";
