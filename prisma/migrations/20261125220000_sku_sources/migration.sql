-- CreateEnum
CREATE TYPE "SourcePolicy" AS ENUM ('priority', 'cheapest');

-- CreateEnum
CREATE TYPE "SkuSourceKind" AS ENUM ('local', 'upstream');

-- AlterTable
ALTER TABLE "UpstreamConnection" ADD COLUMN     "breakerFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "breakerOpenUntil" TIMESTAMP(3),
ADD COLUMN     "breakerProbeAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "UpstreamPurchase" ADD COLUMN     "hop" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "sourceId" INTEGER,
ADD COLUMN     "sentAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "SkuSourceList" (
    "skuId" INTEGER NOT NULL,
    "policy" "SourcePolicy" NOT NULL DEFAULT 'priority',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SkuSourceList_pkey" PRIMARY KEY ("skuId")
);

-- CreateTable
CREATE TABLE "SkuSource" (
    "id" SERIAL NOT NULL,
    "skuId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" "SkuSourceKind" NOT NULL,
    "connectionId" INTEGER,
    "upstreamSkuId" INTEGER,
    "maxCostCents" BIGINT,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "lastCostCents" BIGINT,
    "lastStock" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SkuSource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PurchaseHop" (
    "id" SERIAL NOT NULL,
    "purchaseId" INTEGER NOT NULL,
    "hop" INTEGER NOT NULL,
    "sourceId" INTEGER,
    "connectionId" INTEGER NOT NULL,
    "upstreamSkuId" INTEGER NOT NULL,
    "downstreamOrderNo" TEXT NOT NULL,
    "upstreamOrderId" INTEGER,
    "costCents" BIGINT,
    "status" "UpstreamPurchaseStatus" NOT NULL,
    "outcome" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "sentAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PurchaseHop_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SkuSource_skuId_position_idx" ON "SkuSource"("skuId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseHop_purchaseId_hop_key" ON "PurchaseHop"("purchaseId", "hop");

-- AddForeignKey
ALTER TABLE "SkuSourceList" ADD CONSTRAINT "SkuSourceList_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkuSource" ADD CONSTRAINT "SkuSource_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkuSource" ADD CONSTRAINT "SkuSource_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "UpstreamConnection"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseHop" ADD CONSTRAINT "PurchaseHop_purchaseId_fkey" FOREIGN KEY ("purchaseId") REFERENCES "UpstreamPurchase"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PurchaseHop" ADD CONSTRAINT "PurchaseHop_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "UpstreamConnection"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---- Hand-written (issue 26, decision 0042) ----
-- A source is our card keys (nothing else set) or one upstream SKU (both set);
-- at most one local source per SKU and each upstream SKU once per list.
ALTER TABLE "SkuSource" ADD CONSTRAINT "SkuSource_kind_fields" CHECK (
  ("kind" = 'local' AND "connectionId" IS NULL AND "upstreamSkuId" IS NULL)
  OR ("kind" = 'upstream' AND "upstreamSkuId" IS NOT NULL));
ALTER TABLE "SkuSource" ADD CONSTRAINT "SkuSource_position_positive" CHECK ("position" >= 1);
ALTER TABLE "SkuSource" ADD CONSTRAINT "SkuSource_costs_non_negative"
  CHECK (("maxCostCents" IS NULL OR "maxCostCents" >= 0) AND ("lastCostCents" IS NULL OR "lastCostCents" >= 0));
CREATE UNIQUE INDEX "SkuSource_one_local" ON "SkuSource" ("skuId") WHERE "kind" = 'local';
CREATE UNIQUE INDEX "SkuSource_upstream_once" ON "SkuSource" ("skuId", "connectionId", "upstreamSkuId") WHERE "kind" = 'upstream';
-- A hop's number is sent to its connection once: two hops never share one.
CREATE UNIQUE INDEX "PurchaseHop_connection_number" ON "PurchaseHop" ("connectionId", "downstreamOrderNo");
ALTER TABLE "PurchaseHop" ADD CONSTRAINT "PurchaseHop_hop_positive" CHECK ("hop" >= 1);
ALTER TABLE "UpstreamPurchase" ADD CONSTRAINT "UpstreamPurchase_hop_positive" CHECK ("hop" >= 1);

-- Existing SKUs keep their product's default list (no SkuSourceList row):
-- `auto` = our card keys, `upstream` = the product's mapping, with the SKU's
-- upstreamMaxCostCents as the ceiling. Nothing to copy, and an import that
-- adds SKUs later gets the same default. The first edit saves the list.
