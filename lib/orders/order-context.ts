import { groupedReads } from "../db/grouped-reads";
import { onPool } from "../db/sql-rows";
import { LISTED_PRODUCT_SQL } from "../catalog/product-listed";
import type { DeliveryFormat, FulfillmentType } from "../generated/prisma/enums";

/** What the stored order keeps of its create request (D18). */
export interface StoredOrderDigests {
  id: number;
  digest: string;
  /** NULL for orders stored before the raw digest existed. */
  rawDigest: string | null;
}

export interface OrderContext {
  /** The order already stored under (credential, downstream_order_no), if any. */
  existing: StoredOrderDigests | null;
  pointsDebitEnabled: boolean;
  sku: {
    skuId: number;
    productId: number;
    skuActive: boolean;
    skuLive: boolean;
    productActive: boolean;
    /** Listed in the catalogue (lib/catalog/product-listed.ts): not deleted, nor its category (D11). */
    productLive: boolean;
    fulfillmentType: FulfillmentType;
    /** Issue 26.1: our card keys are a source (taken in the order's statement). */
    takesKeys: boolean;
    /** Issue 26.1: an upstream source exists; with keys too, it serves when the keys run out. */
    buysUpstream: boolean;
    deliveryFormat: DeliveryFormat;
    manualFormSchema: unknown;
    title: unknown;
  } | null;
}

const MAX_INT4 = 2_147_483_647;

/** The context of one order, for the SKU, credential and number these SQL expressions give. */
const contextSql = (skuId: string, credentialId: string, orderNo: string) => `
    SELECT s."id" AS "skuId", s."productId", s."isActive" AS "skuActive", (s."deletedAt" IS NULL) AS "skuLive",
           p."isActive" AS "productActive", ${LISTED_PRODUCT_SQL.text} AS "productLive",
           p."fulfillmentType"::text AS "fulfillmentType", p."deliveryFormat"::text AS "deliveryFormat",
           CASE WHEN l."skuId" IS NULL THEN p."fulfillmentType" = 'auto'
                ELSE EXISTS (SELECT 1 FROM "SkuSource" x WHERE x."skuId" = s."id" AND x."kind" = 'local' AND x."isEnabled") END AS "takesKeys",
           CASE WHEN l."skuId" IS NULL THEN p."fulfillmentType" = 'upstream'
                ELSE EXISTS (SELECT 1 FROM "SkuSource" x WHERE x."skuId" = s."id" AND x."kind" = 'upstream' AND x."isEnabled") END AS "buysUpstream",
           p."manualFormSchema", p."title",
           (SELECT "pointsDebitEnabled" FROM "SiteSettings" WHERE "id" = 1) AS "pointsDebitEnabled",
           e."id" AS "existingId", e."requestDigest" AS "existingDigest",
           e."requestRawDigest" AS "existingRawDigest"
    FROM (SELECT 1) AS one
    LEFT JOIN "Sku" s ON s."id" = ${skuId}
    LEFT JOIN "Product" p ON p."id" = s."productId"
    LEFT JOIN "SkuSourceList" l ON l."skuId" = s."id"
    LEFT JOIN "Category" c ON c."id" = p."categoryId"
    LEFT JOIN "Order" e ON e."credentialId" = ${credentialId} AND e."downstreamOrderNo" = ${orderNo}`;

const ONE_SQL = contextSql("$1::int", "$2::int", "$3::text");
/**
 * Several orders' contexts in one statement, one row each, in the order of the
 * arrays. The arrays are read through sub-selects so that no plan knows their
 * length (issue 40.7): a plan for a known length looked cheaper than the
 * prepared statement's generic one (made for 10), so PostgreSQL planned this
 * statement again for every group.
 */
export const ORDER_CONTEXT_GROUP_SQL = `
    SELECT k."i", ctx.*
    FROM unnest((SELECT $1::int[]), (SELECT $2::int[]), (SELECT $3::text[])) WITH ORDINALITY AS k("skuId", "credentialId", "orderNo", "i")
    CROSS JOIN LATERAL (${contextSql('k."skuId"', 'k."credentialId"', 'k."orderNo"')}) AS ctx
    ORDER BY k."i"`;

export interface OrderContextKey {
  credentialId: number;
  downstreamOrderNo: string;
  skuId: number;
}

/** An id out of the column's range cannot exist; asking would be a type error in SQL. */
const skuKey = (skuId: number) => (Number.isSafeInteger(skuId) && skuId > 0 && skuId <= MAX_INT4 ? skuId : 0);

/**
 * Everything createOrder must know before it writes, in one round trip: the
 * idempotency record, the SKU with its product, and the points switch. Not
 * the price: place_order reads it inside the order's write (issue 12.4).
 * Reads made at the same moment by other requests go in the same statement
 * (lib/db/grouped-reads.ts).
 */
export const readOrderContext: (key: OrderContextKey) => Promise<OrderContext> = groupedReads({
  readOne: async ({ credentialId, downstreamOrderNo, skuId }: OrderContextKey) =>
    contextOf((await onPool(ONE_SQL, [skuKey(skuId), credentialId, downstreamOrderNo], "order_context"))[0]),
  readGroup: async (keys: OrderContextKey[]) => {
    const rows = await onPool(
      ORDER_CONTEXT_GROUP_SQL,
      [keys.map((k) => skuKey(k.skuId)), keys.map((k) => k.credentialId), keys.map((k) => k.downstreamOrderNo)],
      "order_context_group",
    );
    if (rows.length !== keys.length) throw new Error("order context: one row per key expected");
    return rows.map(contextOf);
  },
});

function contextOf(r: Record<string, unknown>): OrderContext {
  return {
    existing:
      r.existingId == null
        ? null
        : {
            id: Number(r.existingId),
            digest: String(r.existingDigest),
            rawDigest: r.existingRawDigest == null ? null : (r.existingRawDigest as string),
          },
    pointsDebitEnabled: r.pointsDebitEnabled !== false,
    sku:
      r.skuId == null
        ? null
        : {
            skuId: Number(r.skuId),
            productId: Number(r.productId),
            skuActive: r.skuActive === true,
            skuLive: r.skuLive === true,
            productActive: r.productActive === true,
            productLive: r.productLive === true,
            fulfillmentType: r.fulfillmentType as FulfillmentType,
            takesKeys: r.takesKeys === true,
            buysUpstream: r.buysUpstream === true,
            deliveryFormat: r.deliveryFormat as DeliveryFormat,
            manualFormSchema: r.manualFormSchema,
            title: r.title,
          },
  };
}
