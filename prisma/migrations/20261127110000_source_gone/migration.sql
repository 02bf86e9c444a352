-- Issue 26.1: the upstream product that last listed a source's upstream SKU; that product
-- listed again without the SKU (or removed) leaves the source at 0 (decision 0049).
ALTER TABLE "SkuSource" ADD COLUMN "upstreamProductId" INTEGER;

-- The updated_at of the newest catalogue event applied to our imported copy of an upstream product
-- (not a column of "Product": every change there restamps the product for downstreams).
CREATE TABLE "UpstreamProductStamp" (
    "connectionId" INTEGER NOT NULL,
    "upstreamProductId" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UpstreamProductStamp_pkey" PRIMARY KEY ("connectionId","upstreamProductId")
);
