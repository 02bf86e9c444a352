-- Issue 26.1: a source whose upstream SKU is gone counts 0 (decision 0049).
ALTER TABLE "SkuSource" ADD COLUMN "upstreamProductId" INTEGER;

-- ---- Hand-written ----
-- A listing of an upstream product (a stock refresh page, a catalogue event)
-- finds the sources of that product's SKUs by this.
CREATE INDEX "SkuSource_connection_upstream_product" ON "SkuSource" ("connectionId", "upstreamProductId") WHERE "kind" = 'upstream';
