-- ---- Hand-written: issue 26.1, the stock a downstream sees (decision 0042, addendum) ----
-- A SKU with its own list of sources shows our available keys (when the
-- local source is on) plus the last known stock of its enabled upstream
-- sources; a SKU without a list follows its product as before (`auto`: the
-- keys, else the SKU's own number). ONE rule, used by the catalogue load,
-- stamp_catalog's event digest, the catalogue events and the stock alert.
--
-- An upstream source's last known stock: what its last hop showed
-- ("lastStock", 0 after a refusal for stock), else the last import of that
-- upstream SKU (NULL there = unlimited, D13), else nothing known: 0, so an
-- upstream SKU never seen does not advertise stock. Capped at int4.
CREATE FUNCTION sku_visible_stock(p_sku integer, p_auto boolean, p_keys integer, p_quantity integer) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN NOT EXISTS (SELECT 1 FROM "SkuSourceList" l WHERE l."skuId" = p_sku)
      THEN CASE WHEN p_auto THEN coalesce(p_keys, 0) ELSE p_quantity END
    ELSE (
      SELECT CASE WHEN bool_or(x.n IS NULL) THEN NULL ELSE least(coalesce(sum(x.n), 0), 2147483647)::int END
      FROM (
        SELECT CASE WHEN ss."kind" = 'local' THEN coalesce(p_keys, 0)::bigint
                    WHEN ss."lastStock" IS NOT NULL THEN ss."lastStock"::bigint
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

-- What changes that stock is a catalogue change of the SKU (the snapshot
-- refresh and the catalogue events pick it up within a refresh): its list
-- and sources, a connection switched on or off, and the imported upstream
-- SKU a source falls back to.
CREATE FUNCTION catalog_change_sku_of_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."skuId" = NEW."skuId" AND OLD."kind" = NEW."kind"
     AND OLD."isEnabled" = NEW."isEnabled" AND OLD."lastStock" IS NOT DISTINCT FROM NEW."lastStock"
     AND OLD."connectionId" IS NOT DISTINCT FROM NEW."connectionId" AND OLD."upstreamSkuId" IS NOT DISTINCT FROM NEW."upstreamSkuId" THEN
    RETURN NULL; -- a cost or position: not stock
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "CatalogChange" ("productId", "skuId") SELECT s."productId", s."id" FROM "Sku" s WHERE s."id" = OLD."skuId";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "CatalogChange" ("productId", "skuId") SELECT s."productId", s."id" FROM "Sku" s WHERE s."id" = NEW."skuId";
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "SkuSource_catalog_change" AFTER INSERT OR UPDATE OR DELETE ON "SkuSource"
  FOR EACH ROW EXECUTE FUNCTION catalog_change_sku_of_source();

CREATE FUNCTION catalog_change_sku_of_list() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("productId", "skuId")
  SELECT s."productId", s."id" FROM "Sku" s WHERE s."id" = CASE WHEN TG_OP = 'DELETE' THEN OLD."skuId" ELSE NEW."skuId" END;
  RETURN NULL;
END $$;
CREATE TRIGGER "SkuSourceList_catalog_change" AFTER INSERT OR DELETE ON "SkuSourceList"
  FOR EACH ROW EXECUTE FUNCTION catalog_change_sku_of_list();

CREATE FUNCTION catalog_change_connection_switch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("productId", "skuId")
  SELECT DISTINCT s."productId", s."id" FROM "SkuSource" ss JOIN "Sku" s ON s."id" = ss."skuId" WHERE ss."connectionId" = NEW."id";
  RETURN NULL;
END $$;
CREATE TRIGGER "UpstreamConnection_catalog_change" AFTER UPDATE OF "isEnabled" ON "UpstreamConnection"
  FOR EACH ROW WHEN (OLD."isEnabled" IS DISTINCT FROM NEW."isEnabled") EXECUTE FUNCTION catalog_change_connection_switch();

-- An imported upstream SKU's number moved (an import, a catalogue event, a
-- stock refresh, a sale of it): the SKUs listing it as a source change too.
CREATE INDEX "SkuSource_connection_upstream_sku" ON "SkuSource" ("connectionId", "upstreamSkuId") WHERE "kind" = 'upstream';
CREATE FUNCTION catalog_change_skus_sourcing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."stockQuantity" IS NOT DISTINCT FROM NEW."stockQuantity" AND OLD."deletedAt" IS NOT DISTINCT FROM NEW."deletedAt"
     AND OLD."upstreamSkuId" IS NOT DISTINCT FROM NEW."upstreamSkuId" AND OLD."productId" = NEW."productId" THEN
    RETURN NULL;
  END IF;
  IF NEW."upstreamSkuId" IS NULL AND (TG_OP = 'INSERT' OR OLD."upstreamSkuId" IS NULL) THEN
    RETURN NULL; -- not an imported SKU: no source can point at it
  END IF;
  INSERT INTO "CatalogChange" ("productId", "skuId")
  SELECT DISTINCT s."productId", s."id"
  FROM "Product" ip
  JOIN "SkuSource" ss ON ss."kind" = 'upstream' AND ss."connectionId" = ip."upstreamConnectionId"
   AND ss."upstreamSkuId" IN (NEW."upstreamSkuId", CASE WHEN TG_OP = 'UPDATE' THEN OLD."upstreamSkuId" END)
  JOIN "Sku" s ON s."id" = ss."skuId"
  WHERE ip."id" = NEW."productId" AND ip."upstreamConnectionId" IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER "Sku_sources_catalog_change" AFTER INSERT OR UPDATE ON "Sku"
  FOR EACH ROW EXECUTE FUNCTION catalog_change_skus_sourcing();

-- stamp_catalog again (see *_stamp_catalog_indexed): the event digest's stock
-- band now reads sku_visible_stock; nothing else changed.
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
              CROSS JOIN LATERAL (SELECT sku_visible_stock(s."id", p."fulfillmentType" = 'auto', st."availableKeys", s."stockQuantity") AS stock) x
              WHERE s."productId" = p."id"))) AS digest
    FROM "Product" p LEFT JOIN "Category" c ON c."id" = p."categoryId"
    WHERE p."id" = ANY (v_touched)
  ) d
  WHERE ps."productId" = d."id" AND ps."notifyDigest" IS DISTINCT FROM d.digest;

  v_clock := v_base + (v_count - 1) * interval '1 microsecond';
  UPDATE "CatalogClock" SET "stamp" = v_clock WHERE "id" = 1;
  RETURN v_clock;
END $$;
