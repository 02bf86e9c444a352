import { db } from "../db/client";
import { appError } from "../errors";
import type { Tx } from "../db/tx";
import type { SourcePolicy } from "../generated/prisma/enums";

/** One source of a SKU as an order sees it now (issue 26.1, decision 0042). */
export interface SkuSourceView {
  /** SkuSource id; null for a source of the product's default list. */
  id: number | null;
  position: number;
  kind: "local" | "upstream";
  connectionId: number | null;
  connectionName: string | null;
  upstreamSkuId: number | null;
  /** The source's own ceiling per unit, else null (then the SKU's, else the unit price paid). */
  maxCostCents: bigint | null;
  /** The source's switch and, for an upstream, its connection's. */
  isEnabled: boolean;
  /** Last known cost per unit: what its last hop charged, else the upstream's price at the last import. */
  knownCostCents: bigint | null;
  /** Last known stock: 0 after a refusal for stock or once its upstream SKU is gone (decision 0049), else the last import's number; null = unknown or unlimited. */
  knownStock: number | null;
  /** The connection's circuit breaker (circuit-breaker.ts). */
  breaker: "closed" | "open" | "half-open";
}

export interface SkuSources {
  skuId: number;
  /** false: the SKU has no list of its own and follows its product (decision 0042). */
  own: boolean;
  policy: SourcePolicy;
  /** The SKU-wide ceiling (issue 22.1, set-upstream-max-cost.ts). */
  skuMaxCostCents: bigint | null;
  sources: SkuSourceView[];
}

type Row = {
  id: number | null;
  position: number;
  kind: "local" | "upstream";
  connectionId: number | null;
  connectionName: string | null;
  upstreamSkuId: number | null;
  maxCostCents: bigint | null;
  isEnabled: boolean;
  knownCostCents: bigint | null;
  knownStock: number | null;
  breaker: SkuSourceView["breaker"];
};

/**
 * The SKU's sources in list order, with what is known of each, in one query:
 * its own list when it has one, else the default of its product (`auto`: our
 * card keys; `upstream`: the product's mapping; `manual`: none). An upstream
 * SKU's last import is found through the product we imported it as, when we
 * did. Returns null for an unknown SKU.
 */
export async function loadSkuSources(skuId: number, tx: Tx = db()): Promise<SkuSources | null> {
  const [sku] = await tx.$queryRaw<{ id: number; own: boolean; policy: SourcePolicy | null; skuMaxCostCents: bigint | null }[]>`
    SELECT s."id", (l."skuId" IS NOT NULL) AS "own", l."policy"::text AS "policy", s."upstreamMaxCostCents" AS "skuMaxCostCents"
    FROM "Sku" s LEFT JOIN "SkuSourceList" l ON l."skuId" = s."id" WHERE s."id" = ${skuId}`;
  if (!sku) return null;
  const rows = await tx.$queryRaw<Row[]>`
    WITH list AS (
      SELECT ss."id", ss."position", ss."kind"::text AS "kind", ss."connectionId", ss."upstreamSkuId", ss."maxCostCents",
             ss."isEnabled", ss."lastCostCents", ss."lastStock"
      FROM "SkuSource" ss WHERE ss."skuId" = ${skuId} AND ${sku.own}
      UNION ALL
      SELECT NULL, 1, CASE p."fulfillmentType" WHEN 'auto' THEN 'local' ELSE 'upstream' END,
             CASE WHEN p."fulfillmentType" = 'upstream' THEN p."upstreamConnectionId" END,
             CASE WHEN p."fulfillmentType" = 'upstream' THEN s."upstreamSkuId" END,
             NULL, true, NULL, NULL
      FROM "Sku" s JOIN "Product" p ON p."id" = s."productId"
      WHERE s."id" = ${skuId} AND NOT ${sku.own}
        AND (p."fulfillmentType" = 'auto' OR (p."fulfillmentType" = 'upstream' AND p."upstreamConnectionId" IS NOT NULL AND s."upstreamSkuId" IS NOT NULL))
    )
    SELECT l."id", l."position", l."kind", l."connectionId", c."name" AS "connectionName", l."upstreamSkuId", l."maxCostCents",
           (l."isEnabled" AND (l."kind" = 'local' OR COALESCE(c."isEnabled", false))) AS "isEnabled",
           COALESCE(l."lastCostCents", imported."upstreamPriceCents") AS "knownCostCents",
           -- -1 = unlimited (a stock refresh): like unknown, always worth a try.
           CASE WHEN l."lastStock" = -1 THEN NULL ELSE COALESCE(l."lastStock", imported."stockQuantity") END AS "knownStock",
           CASE WHEN c."breakerOpenUntil" IS NULL THEN 'closed'
                WHEN c."breakerOpenUntil" > now() THEN 'open' ELSE 'half-open' END AS "breaker"
    FROM list l
    LEFT JOIN "UpstreamConnection" c ON c."id" = l."connectionId"
    LEFT JOIN LATERAL (
      SELECT i."upstreamPriceCents", i."stockQuantity" FROM "Sku" i JOIN "Product" ip ON ip."id" = i."productId"
      WHERE ip."upstreamConnectionId" = l."connectionId" AND i."upstreamSkuId" = l."upstreamSkuId" AND i."deletedAt" IS NULL
      ORDER BY i."id" LIMIT 1
    ) imported ON l."kind" = 'upstream'
    ORDER BY l."position", l."id"`;
  return {
    skuId: sku.id,
    own: sku.own,
    policy: sku.policy ?? "priority",
    skuMaxCostCents: sku.skuMaxCostCents,
    sources: rows.map((r) => ({ ...r, knownStock: r.knownStock === null ? null : Number(r.knownStock) })),
  };
}

/** The sources of the SKU with this code (CLI, console), or 404. */
export async function findSkuSources(skuCode: string): Promise<SkuSources> {
  const sku = await db().sku.findUnique({ where: { skuCode: skuCode.trim() }, select: { id: true } });
  const list = sku ? await loadSkuSources(sku.id) : null;
  if (!list) throw appError("not_found", `SKU ${skuCode.trim()} not found`);
  return list;
}
