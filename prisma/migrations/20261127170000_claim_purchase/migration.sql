-- Issue 26.3 (decision 0059): a claim's replacement may be bought from one of
-- the SKU's upstream sources with the order purchases' machinery. Such a
-- purchase belongs to the claim (one per claim: concurrent replace calls
-- start at most one), not to an order; exactly one of the two is set.
ALTER TABLE "UpstreamPurchase" ALTER COLUMN "orderId" DROP NOT NULL;
ALTER TABLE "UpstreamPurchase" ADD COLUMN "claimId" INTEGER;
CREATE UNIQUE INDEX "UpstreamPurchase_claimId_key" ON "UpstreamPurchase"("claimId");
ALTER TABLE "UpstreamPurchase" ADD CONSTRAINT "UpstreamPurchase_claimId_fkey" FOREIGN KEY ("claimId") REFERENCES "AfterSalesClaim"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "UpstreamPurchase" ADD CONSTRAINT "UpstreamPurchase_order_or_claim" CHECK (("orderId" IS NULL) <> ("claimId" IS NULL));
