-- Decision 0052: the upstream lists the product as `manual`; its delivery is a
-- text of any number of lines, not one key per unit. Set by the next import;
-- rows imported before are treated as card keys (the strict rule) until then.
ALTER TABLE "Product" ADD COLUMN "upstreamManual" BOOLEAN NOT NULL DEFAULT false;

-- Ours alone, as the other upstream columns: not a catalogue change (decision 0018).
CREATE OR REPLACE FUNCTION catalog_row_changed(p_old jsonb, p_new jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (p_old - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents' - 'afterSalesHours' - 'upstreamManual')
    IS DISTINCT FROM (p_new - 'updatedAt' - 'upstreamPriceCents' - 'holdReason' - 'upstreamIsActive' - 'upstreamMaxCostCents' - 'afterSalesHours' - 'upstreamManual')
$$;
