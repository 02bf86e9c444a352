-- Issue 22.1: an upstream's delivery and prices are checked before we accept them.

-- The upstream's own prices at the last import (before our markup): a drop of
-- more than 50 % since then holds the product. NULL for rows imported before
-- this migration: their next import records the price and checks only 0.00.
ALTER TABLE "Product" ADD COLUMN "upstreamPriceCents" BIGINT,
  ADD COLUMN "holdReason" TEXT,
  ADD COLUMN "upstreamIsActive" BOOLEAN;
ALTER TABLE "Sku" ADD COLUMN "upstreamPriceCents" BIGINT,
  ADD COLUMN "upstreamMaxCostCents" BIGINT;

ALTER TABLE "Product" ADD CONSTRAINT "Product_upstream_price_non_negative" CHECK ("upstreamPriceCents" IS NULL OR "upstreamPriceCents" >= 0);
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_upstream_prices_non_negative"
  CHECK (("upstreamPriceCents" IS NULL OR "upstreamPriceCents" >= 0) AND ("upstreamMaxCostCents" IS NULL OR "upstreamMaxCostCents" >= 0));

-- These columns are ours alone (no downstream sees them): a change to them
-- only is not a catalogue change, so the first import after this migration,
-- which records every upstream price, journals nothing (decision 0018).
-- A hold changes "isActive" too, which is journalled as before.
CREATE OR REPLACE FUNCTION catalog_row_changed(p_old jsonb, p_new jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (p_old - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents')
    IS DISTINCT FROM (p_new - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents')
$$;
