import type { Prisma } from "../generated/prisma/client";
import type { OrderStatus } from "../generated/prisma/enums";
import { one, type SearchParams } from "./paging";
import { isInt4IdText } from "../protocol/ids";

export const ORDER_STATUSES = ["processing", "unknown_review", "delivered", "failed"] as const;

/** The orders table's filters, as the URL carries them (also read by the CSV export). */
export interface OrderFilters {
  status?: OrderStatus;
  profile?: "U" | "P";
  /** Exact API key of the credential that placed the order. */
  apiKey?: string;
  productId?: number;
  /** UTC days, inclusive: "2026-03-01". */
  from?: string;
  to?: string;
  /** Order no. or downstream order no. (prefix match on both). */
  q?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (s: string | undefined) => (s && DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) ? s : undefined);

/** Unknown or malformed values are dropped (the URL is user-editable), never an error. */
export function parseOrderFilters(params: SearchParams): OrderFilters {
  const statusRaw = one(params, "status");
  const profileRaw = one(params, "profile");
  const productRaw = one(params, "product")?.trim();
  const apiKey = one(params, "key")?.trim();
  const q = one(params, "q")?.trim();
  return {
    status: ORDER_STATUSES.find((s) => s === statusRaw),
    profile: profileRaw === "U" || profileRaw === "P" ? profileRaw : undefined,
    apiKey: apiKey ? apiKey.slice(0, 200) : undefined,
    productId: isInt4IdText(productRaw) ? Number(productRaw) : undefined,
    from: validDay(one(params, "from")),
    to: validDay(one(params, "to")),
    q: q ? q.slice(0, 100) : undefined,
  };
}

/** The Prisma where clause of the filters. */
export function orderWhere(f: OrderFilters): Prisma.OrderWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (f.from) createdAt.gte = new Date(`${f.from}T00:00:00Z`);
  if (f.to) createdAt.lt = new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000);
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.profile ? { profile: f.profile } : {}),
    ...(f.apiKey ? { credential: { apiKey: f.apiKey } } : {}),
    ...(f.productId ? { items: { some: { sku: { productId: f.productId } } } } : {}),
    ...(f.from || f.to ? { createdAt } : {}),
    ...(f.q ? { OR: [{ orderNo: { startsWith: f.q } }, { downstreamOrderNo: { startsWith: f.q } }] } : {}),
  };
}

/** The filters as query parameters (links to the CSV export keep them). */
export function filterQuery(f: OrderFilters): string {
  const q = new URLSearchParams();
  const set = (k: string, v: string | number | undefined) => {
    if (v !== undefined && v !== "") q.set(k, String(v));
  };
  set("status", f.status);
  set("profile", f.profile);
  set("key", f.apiKey);
  set("product", f.productId);
  set("from", f.from);
  set("to", f.to);
  set("q", f.q);
  return q.toString();
}
