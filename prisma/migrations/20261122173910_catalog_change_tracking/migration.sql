-- CreateTable
CREATE TABLE "SkuLevelPrice" (
    "id" SERIAL NOT NULL,
    "skuId" INTEGER NOT NULL,
    "levelId" INTEGER NOT NULL,
    "priceCents" BIGINT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SkuLevelPrice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CatalogChange" (
    "id" BIGSERIAL NOT NULL,
    "productId" INTEGER,
    "skuId" INTEGER,
    "stockDelta" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CatalogChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProductStamp" (
    "productId" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(6) NOT NULL,
    "notifiedAt" TIMESTAMP(6) NOT NULL,
    "notifyDigest" TEXT NOT NULL,

    CONSTRAINT "ProductStamp_pkey" PRIMARY KEY ("productId")
);

-- CreateTable
CREATE TABLE "SkuStamp" (
    "skuId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(6) NOT NULL,
    "availableKeys" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SkuStamp_pkey" PRIMARY KEY ("skuId")
);

-- CreateTable
CREATE TABLE "CatalogClock" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "stamp" TIMESTAMP(6) NOT NULL,

    CONSTRAINT "CatalogClock_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SkuLevelPrice_levelId_idx" ON "SkuLevelPrice"("levelId");

-- CreateIndex
CREATE UNIQUE INDEX "SkuLevelPrice_skuId_levelId_key" ON "SkuLevelPrice"("skuId", "levelId");

-- CreateIndex
CREATE INDEX "ProductStamp_updatedAt_idx" ON "ProductStamp"("updatedAt");

-- CreateIndex
CREATE INDEX "ProductStamp_notifiedAt_idx" ON "ProductStamp"("notifiedAt");

-- CreateIndex
CREATE INDEX "SkuStamp_productId_idx" ON "SkuStamp"("productId");

-- AddForeignKey
ALTER TABLE "SkuLevelPrice" ADD CONSTRAINT "SkuLevelPrice_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkuLevelPrice" ADD CONSTRAINT "SkuLevelPrice_levelId_fkey" FOREIGN KEY ("levelId") REFERENCES "MemberLevel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---- Hand-written: issues 12 and 13, catalogue change tracking ----
-- See docs/decisions/0018-catalogue-change-tracking.md. Triggers append to
-- "CatalogChange"; stamp_catalog() (one caller at a time) consumes what is
-- committed and gives each changed product a new, unique, increasing stamp.
-- A sale writes no product or SKU row: the CardKey triggers are statement
-- level and append one row per SKU and statement.

ALTER TABLE "SkuLevelPrice" ADD CONSTRAINT "SkuLevelPrice_price_non_negative" CHECK ("priceCents" >= 0);

INSERT INTO "CatalogClock" ("id", "stamp") VALUES (1, '1970-01-01');

-- A row update that changes nothing but Prisma's "updatedAt" is not a change.
CREATE FUNCTION catalog_row_changed(p_old jsonb, p_new jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$ SELECT (p_old - 'updatedAt') IS DISTINCT FROM (p_new - 'updatedAt') $$;

CREATE FUNCTION catalog_change_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NOT catalog_row_changed(to_jsonb(OLD), to_jsonb(NEW)) THEN RETURN NULL; END IF;
  INSERT INTO "CatalogChange" ("productId") VALUES (NEW."id");
  RETURN NULL;
END $$;
CREATE TRIGGER "Product_catalog_change" AFTER INSERT OR UPDATE ON "Product"
  FOR EACH ROW EXECUTE FUNCTION catalog_change_product();

CREATE FUNCTION catalog_change_sku() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NOT catalog_row_changed(to_jsonb(OLD), to_jsonb(NEW)) THEN RETURN NULL; END IF;
  INSERT INTO "CatalogChange" ("productId", "skuId") VALUES (NEW."productId", NEW."id");
  IF TG_OP = 'UPDATE' AND OLD."productId" <> NEW."productId" THEN
    INSERT INTO "CatalogChange" ("productId") VALUES (OLD."productId");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "Sku_catalog_change" AFTER INSERT OR UPDATE ON "Sku"
  FOR EACH ROW EXECUTE FUNCTION catalog_change_sku();

-- A category's products change with it (a deleted category delists them).
CREATE FUNCTION catalog_change_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT catalog_row_changed(to_jsonb(OLD), to_jsonb(NEW)) THEN RETURN NULL; END IF;
  INSERT INTO "CatalogChange" ("productId") SELECT "id" FROM "Product" WHERE "categoryId" = NEW."id";
  RETURN NULL;
END $$;
CREATE TRIGGER "Category_catalog_change" AFTER UPDATE ON "Category"
  FOR EACH ROW EXECUTE FUNCTION catalog_change_category();

-- Image exposure and the public base URL change every product's item (D15).
CREATE FUNCTION catalog_change_everything() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("productId", "skuId") VALUES (NULL, NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER "SiteSettings_catalog_change" AFTER UPDATE ON "SiteSettings"
  FOR EACH ROW WHEN (OLD."imageExposure" IS DISTINCT FROM NEW."imageExposure" OR OLD."publicBaseUrl" IS DISTINCT FROM NEW."publicBaseUrl")
  EXECUTE FUNCTION catalog_change_everything();

CREATE FUNCTION catalog_change_level_price() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("skuId") VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD."skuId" ELSE NEW."skuId" END);
  IF TG_OP = 'UPDATE' AND OLD."skuId" <> NEW."skuId" THEN
    INSERT INTO "CatalogChange" ("skuId") VALUES (OLD."skuId");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "SkuLevelPrice_catalog_change" AFTER INSERT OR UPDATE OR DELETE ON "SkuLevelPrice"
  FOR EACH ROW EXECUTE FUNCTION catalog_change_level_price();

-- Card keys: one row per SKU and statement, carrying the change in available
-- keys (a sale: -quantity; an import: +keys; an undone batch: -keys).
CREATE FUNCTION catalog_change_keys_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("skuId", "stockDelta")
  SELECT "skuId", count(*) FILTER (WHERE "status" = 'available') FROM new_keys GROUP BY "skuId";
  RETURN NULL;
END $$;
CREATE TRIGGER "CardKey_catalog_change_insert" AFTER INSERT ON "CardKey"
  REFERENCING NEW TABLE AS new_keys FOR EACH STATEMENT EXECUTE FUNCTION catalog_change_keys_inserted();

CREATE FUNCTION catalog_change_keys_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("skuId", "stockDelta")
  SELECT "skuId", sum(d)::int FROM (
    SELECT "skuId", 1 AS d FROM new_keys WHERE "status" = 'available'
    UNION ALL
    SELECT "skuId", -1 FROM old_keys WHERE "status" = 'available'
  ) moved GROUP BY "skuId" HAVING sum(d) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER "CardKey_catalog_change_update" AFTER UPDATE ON "CardKey"
  REFERENCING OLD TABLE AS old_keys NEW TABLE AS new_keys FOR EACH STATEMENT EXECUTE FUNCTION catalog_change_keys_updated();

CREATE FUNCTION catalog_change_keys_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("skuId", "stockDelta")
  SELECT "skuId", -count(*) FILTER (WHERE "status" = 'available') FROM old_keys GROUP BY "skuId";
  RETURN NULL;
END $$;
CREATE TRIGGER "CardKey_catalog_change_delete" AFTER DELETE ON "CardKey"
  REFERENCING OLD TABLE AS old_keys FOR EACH STATEMENT EXECUTE FUNCTION catalog_change_keys_deleted();

-- stamp_catalog: consumes the committed changes and moves the stamps. Must run
-- in REPEATABLE READ, so that the rows it consumes and the keys it counts are
-- the same snapshot; one caller at a time (advisory lock: a second caller
-- returns NULL at once; a caller whose snapshot predates the previous stamper's
-- commit fails with a serialization error, which lib/catalog/stamp-catalog.ts
-- treats the same way). p_recount recounts every SKU's available keys (the
-- safety net of a full refresh). Returns the clock.
CREATE FUNCTION stamp_catalog(p_thresholds integer[], p_recount boolean) RETURNS timestamp(6)
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
  WITH created AS (
    INSERT INTO "SkuStamp" ("skuId", "productId", "updatedAt", "availableKeys")
    SELECT s."id", s."productId", '1970-01-01',
           (SELECT count(*) FROM "CardKey" k WHERE k."skuId" = s."id" AND k."status" = 'available')
    FROM "Sku" s
    WHERE (s."id" = ANY (v_skus) OR p_recount) AND NOT EXISTS (SELECT 1 FROM "SkuStamp" t WHERE t."skuId" = s."id")
    RETURNING "skuId"
  ) SELECT coalesce(array_agg("skuId"), '{}') INTO v_new_skus FROM created;

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
  WHERE t."skuId" = s."id" AND (s."id" = ANY (v_skus) OR t."skuId" = ANY (v_new_skus));

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
              CROSS JOIN LATERAL (SELECT CASE WHEN p."fulfillmentType" = 'auto' THEN coalesce(st."availableKeys", 0)
                                              ELSE s."stockQuantity" END AS stock) x
              WHERE s."productId" = p."id"))) AS digest
    FROM "Product" p LEFT JOIN "Category" c ON c."id" = p."categoryId"
    WHERE p."id" = ANY (v_touched)
  ) d
  WHERE ps."productId" = d."id" AND ps."notifyDigest" IS DISTINCT FROM d.digest;

  v_clock := v_base + (v_count - 1) * interval '1 microsecond';
  UPDATE "CatalogClock" SET "stamp" = v_clock WHERE "id" = 1;
  RETURN v_clock;
END $$;

-- Existing products and SKUs are stamped by the first stamp_catalog().
INSERT INTO "CatalogChange" ("productId") SELECT "id" FROM "Product";
INSERT INTO "CatalogChange" ("productId", "skuId") SELECT "productId", "id" FROM "Sku";
