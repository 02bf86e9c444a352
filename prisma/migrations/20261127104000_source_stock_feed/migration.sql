-- Issue 26.1: the stock refresh and upstream catalogue events feed the sources' last known stock (decision 0042, second addendum).
ALTER TABLE "UpstreamConnection" ADD COLUMN "stockSyncToken" TEXT,
ADD COLUMN "stockLeaseUntil" TIMESTAMP(3);
ALTER TABLE "SkuSource" ADD COLUMN "lastStockAt" TIMESTAMP(3);

-- ---- Hand-written ----
-- A source's last known stock: NULL unknown, -1 unlimited (D13, what the
-- upstream's stock_quantity says), else a count.
ALTER TABLE "SkuSource" ADD CONSTRAINT "SkuSource_lastStock_range" CHECK ("lastStock" IS NULL OR "lastStock" >= -1);

-- sku_visible_stock as in 20261127103000_source_stock, but a lastStock of -1
-- is unlimited (NULL in the sum makes the SKU unlimited).
CREATE OR REPLACE FUNCTION sku_visible_stock(p_sku integer, p_auto boolean, p_keys integer, p_quantity integer) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN NOT EXISTS (SELECT 1 FROM "SkuSourceList" l WHERE l."skuId" = p_sku)
      THEN CASE WHEN p_auto THEN coalesce(p_keys, 0) ELSE p_quantity END
    ELSE (
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
      ) x)
  END
$$;

-- The incremental sync only lists products that changed after the token: a
-- source added (or switched on, or pointed elsewhere) after it would never be
-- read. Such a change sends its connection's refresh back to the start.
CREATE FUNCTION stock_sync_restart_for_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "UpstreamConnection" SET "stockSyncToken" = NULL WHERE "id" = NEW."connectionId" AND "stockSyncToken" IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER "SkuSource_stock_sync_restart" AFTER INSERT OR UPDATE OF "connectionId", "upstreamSkuId", "isEnabled" ON "SkuSource"
  FOR EACH ROW WHEN (NEW."kind" = 'upstream' AND NEW."isEnabled" AND NEW."connectionId" IS NOT NULL)
  EXECUTE FUNCTION stock_sync_restart_for_source();

-- A connection switched back on was not read while off: from the start too.
CREATE FUNCTION stock_sync_restart_for_connection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."stockSyncToken" := NULL;
  RETURN NEW;
END $$;
CREATE TRIGGER "UpstreamConnection_stock_sync_restart" BEFORE UPDATE OF "isEnabled" ON "UpstreamConnection"
  FOR EACH ROW WHEN (NEW."isEnabled" AND NOT OLD."isEnabled") EXECUTE FUNCTION stock_sync_restart_for_connection();
