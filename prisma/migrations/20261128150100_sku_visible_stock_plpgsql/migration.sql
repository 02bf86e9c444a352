-- Issue 33.9 (decision 0065): sku_visible_stock as in *_source_stock_feed,
-- the same rule, in PL/pgSQL. A SQL function whose body holds sub-selects is
-- never inlined; each call went through the SQL function executor, and the
-- snapshot's load calls it once per SKU: loading the 10,000 products of a big
-- import (20,000 SKUs, no sources) took 2-3 times as long as the same load
-- reading the key count directly. PL/pgSQL keeps its plans and answers a SKU
-- without sources (the usual case) with one index probe.
CREATE OR REPLACE FUNCTION sku_visible_stock(p_sku integer, p_auto boolean, p_keys integer, p_quantity integer) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "SkuSourceList" l WHERE l."skuId" = p_sku) THEN
    RETURN CASE WHEN p_auto THEN coalesce(p_keys, 0) ELSE p_quantity END;
  END IF;
  RETURN (
      SELECT CASE WHEN bool_or(x.n IS NULL) THEN NULL ELSE least(coalesce(sum(x.n), 0), 2147483647)::int END
      FROM (
        SELECT CASE WHEN ss."kind" = 'local' THEN coalesce(p_keys, 0)::bigint
                    WHEN ss."lastStock" IS NOT NULL THEN nullif(ss."lastStock", -1)::bigint
                    WHEN imported.found THEN imported."stockQuantity"::bigint
                    ELSE 0 END AS n
        FROM "SkuSource" ss
        LEFT JOIN "UpstreamConnection" c ON c."id" = ss."connectionId"
        LEFT JOIN LATERAL (
          SELECT true AS found, i."stockQuantity" FROM "Sku" i JOIN "Product" ip ON ip."id" = i."productId"
          WHERE ip."upstreamConnectionId" = ss."connectionId" AND i."upstreamSkuId" = ss."upstreamSkuId" AND i."deletedAt" IS NULL
          ORDER BY i."id" LIMIT 1
        ) imported ON ss."kind" = 'upstream' AND ss."lastStock" IS NULL
        WHERE ss."skuId" = p_sku AND ss."isEnabled" AND (ss."kind" = 'local' OR coalesce(c."isEnabled", false))
      ) x);
END $$;
