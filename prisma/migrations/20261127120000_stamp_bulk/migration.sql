-- stamp_catalog again (see *_source_stock): the same result, faster for a
-- bulk import (issue 28.3). Measured on a fresh 10,000-product, 1,000,000-key
-- import (docs/benchmarks.md): the first stamp took 4.6-5.5 s, 2.3 s of it
-- the event digest, where sku_visible_stock() ran once per threshold and once
-- more for the NULL test (the planner pulled the lateral subquery up into each
-- use). Only that statement changed: the subquery is kept whole (OFFSET 0).
CREATE OR REPLACE FUNCTION stamp_catalog(p_thresholds integer[], p_recount boolean) RETURNS timestamp(6)
LANGUAGE plpgsql AS $$
DECLARE
  v_clock    timestamp(6);
  v_base     timestamp(6);
  v_all      boolean;
  v_products integer[];
  v_skus     integer[];
  v_deltas   integer[];
  v_new_skus integer[];
  v_touched  integer[];
  v_count    integer;
BEGIN
  IF current_setting('transaction_isolation') <> 'repeatable read' THEN
    RAISE EXCEPTION 'stamp_catalog must run in REPEATABLE READ';
  END IF;
  IF NOT pg_try_advisory_xact_lock(7368221) THEN
    RETURN NULL;
  END IF;
  SELECT "stamp" INTO v_clock FROM "CatalogClock" WHERE "id" = 1;

  WITH taken AS (DELETE FROM "CatalogChange" RETURNING "productId", "skuId", "stockDelta")
  SELECT coalesce(bool_or("productId" IS NULL AND "skuId" IS NULL), false),
         coalesce(array_agg(DISTINCT "productId") FILTER (WHERE "productId" IS NOT NULL), '{}'),
         coalesce(array_agg("skuId") FILTER (WHERE "skuId" IS NOT NULL), '{}'),
         coalesce(array_agg("stockDelta") FILTER (WHERE "skuId" IS NOT NULL), '{}')
  INTO v_all, v_products, v_skus, v_deltas FROM taken;

  -- A SKU seen for the first time is counted (the count already includes
  -- every delta of this snapshot); the others take their deltas.
  -- Two statements rather than one with "OR p_recount": the usual run (a few
  -- SKUs) must use the primary key, not scan every SKU.
  IF p_recount THEN
    WITH created AS (
      INSERT INTO "SkuStamp" ("skuId", "productId", "updatedAt", "availableKeys")
      SELECT s."id", s."productId", '1970-01-01',
             (SELECT count(*) FROM "CardKey" k WHERE k."skuId" = s."id" AND k."status" = 'available')
      FROM "Sku" s WHERE NOT EXISTS (SELECT 1 FROM "SkuStamp" t WHERE t."skuId" = s."id")
      RETURNING "skuId"
    ) SELECT coalesce(array_agg("skuId"), '{}') INTO v_new_skus FROM created;
  ELSE
    WITH created AS (
      INSERT INTO "SkuStamp" ("skuId", "productId", "updatedAt", "availableKeys")
      SELECT s."id", s."productId", '1970-01-01',
             (SELECT count(*) FROM "CardKey" k WHERE k."skuId" = s."id" AND k."status" = 'available')
      FROM "Sku" s WHERE s."id" = ANY (v_skus) AND NOT EXISTS (SELECT 1 FROM "SkuStamp" t WHERE t."skuId" = s."id")
      RETURNING "skuId"
    ) SELECT coalesce(array_agg("skuId"), '{}') INTO v_new_skus FROM created;
  END IF;

  UPDATE "SkuStamp" t SET "availableKeys" = t."availableKeys" + d.delta
  FROM (SELECT sku, sum(delta)::int AS delta FROM unnest(v_skus, v_deltas) AS u(sku, delta) GROUP BY sku) d
  WHERE t."skuId" = d.sku AND d.delta <> 0 AND NOT (t."skuId" = ANY (v_new_skus));

  IF p_recount THEN
    WITH counts AS (
      SELECT t."skuId", coalesce(c.n, 0) AS n FROM "SkuStamp" t LEFT JOIN (
        SELECT "skuId", count(*)::int AS n FROM "CardKey" WHERE "status" = 'available' GROUP BY "skuId"
      ) c ON c."skuId" = t."skuId"
    ), fixed AS (
      UPDATE "SkuStamp" t SET "availableKeys" = counts.n FROM counts
      WHERE t."skuId" = counts."skuId" AND t."availableKeys" <> counts.n
      RETURNING t."skuId"
    ) SELECT v_skus || coalesce(array_agg("skuId"), '{}') INTO v_skus FROM fixed;
    v_products := v_products || ARRAY(
      SELECT p."id" FROM "Product" p WHERE NOT EXISTS (SELECT 1 FROM "ProductStamp" s WHERE s."productId" = p."id"));
  END IF;

  IF v_all THEN
    v_touched := ARRAY(SELECT "id" FROM "Product" ORDER BY "id");
  ELSE
    v_touched := ARRAY(
      SELECT DISTINCT id FROM (
        SELECT unnest(v_products) AS id
        UNION ALL SELECT s."productId" FROM "Sku" s WHERE s."id" = ANY (v_skus)
      ) ids WHERE EXISTS (SELECT 1 FROM "Product" p WHERE p."id" = ids.id) ORDER BY id);
  END IF;
  v_count := coalesce(array_length(v_touched, 1), 0);
  IF v_count = 0 THEN
    RETURN v_clock;
  END IF;

  -- Unique, increasing stamps: one microsecond apart, all after the clock.
  v_base := greatest((clock_timestamp() AT TIME ZONE 'UTC')::timestamp(6), v_clock + interval '1 microsecond');
  INSERT INTO "ProductStamp" ("productId", "updatedAt", "notifiedAt", "notifyDigest")
  SELECT id, v_base + (n - 1) * interval '1 microsecond', '1970-01-01', ''
  FROM unnest(v_touched) WITH ORDINALITY AS u(id, n)
  ON CONFLICT ("productId") DO UPDATE SET "updatedAt" = EXCLUDED."updatedAt";

  UPDATE "SkuStamp" t SET "updatedAt" = ps."updatedAt", "productId" = s."productId"
  FROM "Sku" s JOIN "ProductStamp" ps ON ps."productId" = s."productId"
  WHERE t."skuId" = ANY (v_skus || v_new_skus) AND s."id" = t."skuId";

  -- What a catalogue event reports (issue 12.2): price, active flag, listing,
  -- the SKU set, level prices, and the stock band (the number of thresholds
  -- the stock is above; NULL stock is unlimited). A quantity that moves
  -- within one band changes updated_at but not this digest.
  UPDATE "ProductStamp" ps SET "notifyDigest" = d.digest, "notifiedAt" = ps."updatedAt"
  FROM (
    SELECT p."id", md5(concat_ws('|', p."isActive", p."priceCents",
             (p."deletedAt" IS NULL AND c."deletedAt" IS NULL),
             (SELECT string_agg(concat_ws(',', s."id", s."priceCents", s."isActive", s."deletedAt" IS NULL,
                       CASE WHEN x.stock IS NULL THEN 'u'
                            ELSE (SELECT count(*) FROM unnest(p_thresholds) AS th(v) WHERE x.stock > th.v)::text END,
                       (SELECT string_agg(lp."levelId" || ':' || lp."priceCents", ' ' ORDER BY lp."levelId")
                        FROM "SkuLevelPrice" lp WHERE lp."skuId" = s."id")), ';' ORDER BY s."id")
              FROM "Sku" s LEFT JOIN "SkuStamp" st ON st."skuId" = s."id"
              -- OFFSET 0: computed once per SKU, not once per use of x.stock below.
              CROSS JOIN LATERAL (SELECT sku_visible_stock(s."id", p."fulfillmentType" = 'auto', st."availableKeys", s."stockQuantity") AS stock OFFSET 0) x
              WHERE s."productId" = p."id"))) AS digest
    FROM "Product" p LEFT JOIN "Category" c ON c."id" = p."categoryId"
    WHERE p."id" = ANY (v_touched)
  ) d
  WHERE ps."productId" = d."id" AND ps."notifyDigest" IS DISTINCT FROM d.digest;

  v_clock := v_base + (v_count - 1) * interval '1 microsecond';
  UPDATE "CatalogClock" SET "stamp" = v_clock WHERE "id" = 1;
  RETURN v_clock;
END $$;
