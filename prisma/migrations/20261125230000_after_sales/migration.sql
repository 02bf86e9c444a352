-- Issue 26.3: after-sales for a single key (docs/decisions/0043-after-sales.md).

-- Hours after delivery during which a line may be claimed; 0 = none.
ALTER TABLE "Product" ADD COLUMN "afterSalesHours" INTEGER NOT NULL DEFAULT 24;
ALTER TABLE "Product" ADD CONSTRAINT "Product_after_sales_hours_range" CHECK ("afterSalesHours" BETWEEN 0 AND 8760);

-- The sum of an order's partial refunds: never more than it cost (issue 26.4).
ALTER TABLE "Order" ADD COLUMN "refundedCents" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Order" ADD CONSTRAINT "Order_refunded_within_amount" CHECK ("refundedCents" >= 0 AND "refundedCents" <= "amountCents");

-- These columns are ours alone: the after-sales window is not shown on the
-- wire, so a change of it is not a catalogue change (decision 0018).
CREATE OR REPLACE FUNCTION catalog_row_changed(p_old jsonb, p_new jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (p_old - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents' - 'afterSalesHours')
    IS DISTINCT FROM (p_new - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents' - 'afterSalesHours')
$$;

-- CreateEnum
CREATE TYPE "ClaimState" AS ENUM ('open', 'replaced', 'refunded', 'rejected');

-- CreateTable
CREATE TABLE "AfterSalesClaim" (
    "id" SERIAL NOT NULL,
    "orderId" INTEGER NOT NULL,
    "credentialId" INTEGER NOT NULL,
    "requestId" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "state" "ClaimState" NOT NULL DEFAULT 'open',
    "claimedCiphertext" BYTEA NOT NULL,
    "refundCents" BIGINT,
    "resolutionNote" TEXT,
    "resolvedBy" TEXT,
    "resolvedAt" TIMESTAMP(3),
    "upstreamState" TEXT,
    "upstreamClaimId" INTEGER,
    "upstreamError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AfterSalesClaim_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AfterSalesClaim_credentialId_requestId_key" ON "AfterSalesClaim"("credentialId", "requestId");
CREATE INDEX "AfterSalesClaim_state_createdAt_idx" ON "AfterSalesClaim"("state", "createdAt");
CREATE INDEX "AfterSalesClaim_orderId_idx" ON "AfterSalesClaim"("orderId");

-- AddForeignKey
ALTER TABLE "AfterSalesClaim" ADD CONSTRAINT "AfterSalesClaim_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One live claim per line: a second claim of a line that is open, refunded or
-- rejected is refused by the database too (the service answers
-- line_already_claimed). A replaced line holds a new key and may be claimed again.
CREATE UNIQUE INDEX "AfterSalesClaim_one_live_claim_per_line" ON "AfterSalesClaim"("orderId", "line") WHERE "state" <> 'replaced';
ALTER TABLE "AfterSalesClaim" ADD CONSTRAINT "AfterSalesClaim_line_non_negative" CHECK ("line" >= 0);
ALTER TABLE "AfterSalesClaim" ADD CONSTRAINT "AfterSalesClaim_refund_non_negative" CHECK ("refundCents" IS NULL OR "refundCents" >= 0);
