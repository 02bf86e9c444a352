-- Issue 13.3: every imported key paid an entry in ("skuId", "status", "id"),
-- and no query needs it. Orders pick keys by the partial available-pick index
-- ("skuId", "id") WHERE status = 'available', which also serves every
-- available-key count (stamp_catalog, the dashboard); an order's keys and
-- their release go by "orderId"; the console's per-SKU counts read the
-- SKU's keys through the unique ("skuId", "fingerprint") index (they group
-- by batch as well, so they visited each key's row already). Measured on a
-- copy of the schema, 1,000,000 keys moved: 26.2-27.1 s with it, 22.0 s
-- without (decision 0024).
DROP INDEX "CardKey_skuId_status_id_idx";
