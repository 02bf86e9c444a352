import fs from "node:fs";
import path from "node:path";
import type { Profile } from "../protocol/profiles";

// The seven endpoints of section 4 and the extensions of docs/protocol.md
// ("Extensions"), with the route file that serves each and a request that
// passes authentication without changing anything (unknown ids, an unknown
// SKU). Tests iterate this table, so an endpoint added by its route file is
// covered by the shared security suite automatically.

export interface EndpointSpec {
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path after the prefix, for a harmless request. */
  path: string;
  /** Body of the harmless request ("" for none); may use a unique token. */
  body: (unique: string) => string;
  /** Route file relative to the project root. */
  routeFile: string;
  /** The profiles that have it (default both); under the others' prefixes its path is 404 not_found. */
  profiles?: readonly Profile[];
}

const ROUTES = "app/api/v1/[profile]";

export const SUPPLIER_ENDPOINTS: readonly EndpointSpec[] = [
  { name: "ping (GET)", method: "GET", path: "/ping", body: () => "", routeFile: `${ROUTES}/ping/route.ts` },
  { name: "ping (POST)", method: "POST", path: "/ping", body: () => "", routeFile: `${ROUTES}/ping/route.ts` },
  { name: "categories", method: "GET", path: "/categories", body: () => "", routeFile: `${ROUTES}/categories/route.ts` },
  { name: "products", method: "GET", path: "/products", body: () => "", routeFile: `${ROUTES}/products/route.ts` },
  { name: "product detail", method: "GET", path: "/products/999999", body: () => "", routeFile: `${ROUTES}/products/[id]/route.ts` },
  {
    name: "create order",
    method: "POST",
    path: "/orders",
    body: (u) => JSON.stringify({ downstream_order_no: `SEC-${u}`, sku_id: 999999, quantity: 1 }),
    routeFile: `${ROUTES}/orders/route.ts`,
  },
  { name: "read order", method: "GET", path: "/orders/999999", body: () => "", routeFile: `${ROUTES}/orders/[id]/route.ts` },
  { name: "cancel order", method: "POST", path: "/orders/999999/cancel", body: () => "{}", routeFile: `${ROUTES}/orders/[id]/cancel/route.ts` },
  // Extension: after-sales (issue 26.3, decision 0043). Harmless: an unknown order.
  { name: "after-sales (GET)", method: "GET", path: "/orders/999999/after-sales", body: () => "", routeFile: `${ROUTES}/orders/[id]/after-sales/route.ts` },
  {
    name: "after-sales (POST)",
    method: "POST",
    path: "/orders/999999/after-sales",
    body: (u) => JSON.stringify({ request_id: `SEC-${u}`, line: 0, reason: "security suite" }),
    routeFile: `${ROUTES}/orders/[id]/after-sales/route.ts`,
  },
  // Extension: balance statement (docs/decisions/0019-balance-statement.md); read-only.
  { name: "statement", method: "GET", path: "/statement", body: () => "", routeFile: `${ROUTES}/statement/route.ts` },
  // Issue 12.2 (Profile U): harmless = reads, a URL refused by D29 (scheme), removing none.
  ...(["GET", "PUT", "DELETE"] as const).map((method) => ({
    name: `catalog webhook (${method})`,
    method,
    path: "/catalog-webhook",
    body: () => (method === "PUT" ? JSON.stringify({ url: "ftp://example.com/hook" }) : ""),
    routeFile: `${ROUTES}/catalog-webhook/route.ts`,
    profiles: ["U"] as const,
  })),
];

/** Whether the endpoint exists under the profile's prefixes. */
export const servedIn = (e: EndpointSpec, profile: Profile) => !e.profiles || e.profiles.includes(profile);

/** The endpoints whose route file exists in this working tree. */
export function existingEndpoints(root = process.cwd()): EndpointSpec[] {
  return SUPPLIER_ENDPOINTS.filter((e) => fs.existsSync(path.join(root, e.routeFile)));
}

/** Every route.ts under app/api/v1/[profile], relative to the root. */
export function routeFilesOnDisk(root = process.cwd()): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name === "route.ts") out.push(rel);
    }
  };
  walk(ROUTES);
  return out.sort();
}
