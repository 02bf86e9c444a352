-- Issue 33.9 (decision 0065): a SKU gets its "SkuStamp" row, 0 available keys,
-- in the transaction that creates it. Every key it ever holds is then in the
-- journal (the "CardKey" triggers are ALWAYS), so stamp_catalog() takes the
-- SKU's deltas like any other SKU's instead of counting its keys: the first
-- stamp after a 20,000-SKU, 1,000,000-key import spent about 2 s in those
-- 20,000 index scans. A SKU without the row (created before this migration,
-- or while triggers were off, e.g. a restore, which copies the rows) is still
-- counted by stamp_catalog() as before. One statement trigger: a page of 500
-- imported SKUs is one INSERT.
CREATE FUNCTION sku_stamp_row_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SkuStamp" ("skuId", "productId", "updatedAt", "availableKeys")
  SELECT "id", "productId", '1970-01-01', 0 FROM new_skus
  ON CONFLICT ("skuId") DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER "Sku_stamp_row" AFTER INSERT ON "Sku"
  REFERENCING NEW TABLE AS new_skus FOR EACH STATEMENT EXECUTE FUNCTION sku_stamp_row_created();
