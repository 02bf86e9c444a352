-- Issue 33.4: how many times one delivered line may be replaced within the
-- product's after-sales window (default once; 0 = claims are refunded or
-- rejected only). At most 100: more is a typing slip, not a policy.
ALTER TABLE "Product" ADD COLUMN "afterSalesReplaces" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Product" ADD CONSTRAINT "Product_after_sales_replaces_range" CHECK ("afterSalesReplaces" BETWEEN 0 AND 100);

-- Ours alone, as the after-sales window: not a catalogue change (decision 0018).
CREATE OR REPLACE FUNCTION catalog_row_changed(p_old jsonb, p_new jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (p_old - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents' - 'afterSalesHours' - 'upstreamManual' - 'afterSalesReplaces')
    IS DISTINCT FROM (p_new - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents' - 'afterSalesHours' - 'upstreamManual' - 'afterSalesReplaces')
$$;
