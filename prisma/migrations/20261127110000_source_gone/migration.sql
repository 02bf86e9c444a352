-- Issue 26.1: the upstream product that last listed a source's upstream SKU; that product
-- listed again without the SKU (or removed) leaves the source at 0 (decision 0049).
ALTER TABLE "SkuSource" ADD COLUMN "upstreamProductId" INTEGER;
