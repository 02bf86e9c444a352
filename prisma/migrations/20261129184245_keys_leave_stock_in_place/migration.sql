-- ---- Keys leave stock in place (issue 40.3, decision 0103) ----
-- Delivering a key changed its "status" (the predicate of the pick index) and
-- its "orderId" (an indexed column), so every delivered key got a new row
-- version elsewhere and a new entry in each of three indexes: 40-60 us a key,
-- 5-7 s for an order of 100,000 keys (docs/benchmarks.md, "Issue 40.5").
-- Now nothing indexed changes: the available keys are also listed in
-- "KeyStock" (orders pick from it), an order's keys are found through its
-- runs of consecutive ids in "OrderKeyRange", both kept by the "CardKey"
-- triggers below (so every writer of "CardKey" stays as it is: import, paste,
-- undo, release, restore, fixtures), and "CardKey" keeps half of each page
-- free (fillfactor 50) so the update finds room on its page: a HOT update.

-- No foreign key on "CardKey"."orderId": its check cost 14 us a key (1.4 s
-- of a 100,000-key order); each key's run in "OrderKeyRange", written by the
-- same statement's trigger, references the order instead.
ALTER TABLE "CardKey" DROP CONSTRAINT "CardKey_orderId_fkey";

-- CreateTable
CREATE TABLE "KeyStock" (
    "skuId" INTEGER NOT NULL,
    "keyId" BIGINT NOT NULL,

    CONSTRAINT "KeyStock_pkey" PRIMARY KEY ("skuId","keyId")
);

-- CreateTable
CREATE TABLE "OrderKeyRange" (
    "orderId" INTEGER NOT NULL,
    "fromId" BIGINT NOT NULL,
    "toId" BIGINT NOT NULL,

    CONSTRAINT "OrderKeyRange_pkey" PRIMARY KEY ("orderId","fromId")
);

-- AddForeignKey
ALTER TABLE "OrderKeyRange" ADD CONSTRAINT "OrderKeyRange_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Both derived tables from the keys as they are.
INSERT INTO "KeyStock" ("skuId", "keyId") SELECT "skuId", "id" FROM "CardKey" WHERE "status" = 'available';
INSERT INTO "OrderKeyRange" ("orderId", "fromId", "toId")
SELECT "orderId", min("id"), max("id") FROM (
  SELECT "orderId", "id", "id" - row_number() OVER (PARTITION BY "orderId" ORDER BY "id") AS run
  FROM "CardKey" WHERE "orderId" IS NOT NULL
) keys GROUP BY "orderId", run;

DROP INDEX "CardKey_available_pick";
DROP INDEX "CardKey_orderId_idx";
ALTER TABLE "CardKey" SET (fillfactor = 50);

-- The "CardKey" triggers: one per statement, as before (the catalogue journal
-- of the stock deltas is unchanged), now also keeping "KeyStock" and
-- "OrderKeyRange".
-- Each statement here must be fast for one key and for 100,000 whatever plan
-- it has: a PL/pgSQL statement keeps the plan of its first run in the
-- session, and a transition table's size at that run is all the planner knew
-- of it (a join planned for one key ran quadratically for 10,000: 12.7 s).
-- So no joins between the transition tables and no join into "KeyStock": the
-- stock rows to delete are looked up one by one (a sub-select per key, by
-- primary key) and deleted by their row address.
-- Runs of consecutive ids: "id" minus its rank is constant along a run (gaps
-- and islands), so keys imported together and taken together are one row
-- however many they are. An update that leaves a delivered key with its order
-- may write a run again (ON CONFLICT DO NOTHING, or an overlapping run):
-- readers join runs and check "orderId", so a run only says where to look.
CREATE FUNCTION card_keys_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("skuId", "stockDelta")
  SELECT "skuId", count(*) FILTER (WHERE "status" = 'available') FROM new_keys GROUP BY "skuId";
  INSERT INTO "KeyStock" ("skuId", "keyId") SELECT "skuId", "id" FROM new_keys WHERE "status" = 'available';
  INSERT INTO "OrderKeyRange" ("orderId", "fromId", "toId")
  SELECT "orderId", min("id"), max("id") FROM (
    SELECT "orderId", "id", "id" - row_number() OVER (PARTITION BY "orderId" ORDER BY "id") AS run
    FROM new_keys WHERE "orderId" IS NOT NULL
  ) keys GROUP BY "orderId", run
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION card_keys_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("skuId", "stockDelta")
  SELECT "skuId", sum(d)::int FROM (
    SELECT "skuId", 1 AS d FROM new_keys WHERE "status" = 'available'
    UNION ALL
    SELECT "skuId", -1 FROM old_keys WHERE "status" = 'available'
  ) moved GROUP BY "skuId" HAVING sum(d) <> 0;
  -- A key that was available leaves the stock; one that is available (again) enters it.
  DELETE FROM "KeyStock" WHERE ctid = ANY (ARRAY(
    SELECT (SELECT s.ctid FROM "KeyStock" s WHERE s."skuId" = o."skuId" AND s."keyId" = o."id")
    FROM old_keys o WHERE o."status" = 'available'));
  INSERT INTO "KeyStock" ("skuId", "keyId") SELECT "skuId", "id" FROM new_keys WHERE "status" = 'available';
  -- The runs of the delivered keys (those that joined an order, and maybe others).
  INSERT INTO "OrderKeyRange" ("orderId", "fromId", "toId")
  SELECT "orderId", min("id"), max("id") FROM (
    SELECT "orderId", "id", "id" - row_number() OVER (PARTITION BY "orderId" ORDER BY "id") AS run
    FROM new_keys WHERE "orderId" IS NOT NULL AND "status" = 'delivered'
  ) keys GROUP BY "orderId", run
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION card_keys_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CatalogChange" ("skuId", "stockDelta")
  SELECT "skuId", -count(*) FILTER (WHERE "status" = 'available') FROM old_keys GROUP BY "skuId";
  DELETE FROM "KeyStock" WHERE ctid = ANY (ARRAY(
    SELECT (SELECT s.ctid FROM "KeyStock" s WHERE s."skuId" = o."skuId" AND s."keyId" = o."id")
    FROM old_keys o WHERE o."status" = 'available'));
  RETURN NULL;
END $$;

DROP TRIGGER "CardKey_catalog_change_insert" ON "CardKey";
DROP TRIGGER "CardKey_catalog_change_update" ON "CardKey";
DROP TRIGGER "CardKey_catalog_change_delete" ON "CardKey";
DROP FUNCTION catalog_change_keys_inserted();
DROP FUNCTION catalog_change_keys_updated();
DROP FUNCTION catalog_change_keys_deleted();
CREATE TRIGGER "CardKey_inserted" AFTER INSERT ON "CardKey"
  REFERENCING NEW TABLE AS new_keys FOR EACH STATEMENT EXECUTE FUNCTION card_keys_inserted();
CREATE TRIGGER "CardKey_updated" AFTER UPDATE ON "CardKey"
  REFERENCING OLD TABLE AS old_keys NEW TABLE AS new_keys FOR EACH STATEMENT EXECUTE FUNCTION card_keys_updated();
CREATE TRIGGER "CardKey_deleted" AFTER DELETE ON "CardKey"
  REFERENCING OLD TABLE AS old_keys FOR EACH STATEMENT EXECUTE FUNCTION card_keys_deleted();
-- Decision 0024: they fire in replica mode too (a restore disables them itself).
ALTER TABLE "CardKey" ENABLE ALWAYS TRIGGER "CardKey_inserted";
ALTER TABLE "CardKey" ENABLE ALWAYS TRIGGER "CardKey_updated";
ALTER TABLE "CardKey" ENABLE ALWAYS TRIGGER "CardKey_deleted";

-- The keys an order took, found through its runs: the one way to read them
-- in SQL ("orderId" is no longer indexed; a run only says where to look, so
-- "orderId" is checked on each key, and overlapping runs give a key once).
CREATE FUNCTION order_keys(p_order_id integer) RETURNS SETOF "CardKey" LANGUAGE sql STABLE AS $$
  SELECT k.* FROM "CardKey" k
  WHERE k."orderId" = p_order_id
    AND k."id" IN (SELECT generate_series(r."fromId", r."toId") FROM "OrderKeyRange" r WHERE r."orderId" = p_order_id)
$$;

-- place_order (as in *_large_order_pick_by_key_ids) picking from "KeyStock"
-- and returning the keys it took by id.
CREATE OR REPLACE FUNCTION place_order(
  p_order_no             text,
  p_credential_id        integer,
  p_user_id              uuid,
  p_profile              "Profile",
  p_downstream_no        text,
  p_request_digest       text,
  p_request_raw_digest   text,
  p_trace_id             text,
  p_callback_url         text,
  p_manual_form_data     jsonb,
  p_sku_id               integer,
  p_product_id           integer,
  p_title                jsonb,
  p_quantity             integer,
  p_auto                 boolean,
  p_delivery_format      "DeliveryFormat",
  p_pick_after           bigint DEFAULT 0,
  p_wait_for_keys        boolean DEFAULT true,
  p_max_total_cents      bigint DEFAULT NULL
) RETURNS TABLE ("orderId" integer, "createdAt" timestamp(3), "unitPriceCents" bigint, "keyId" bigint, "keyCiphertext" bytea, "priceRule" text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_order_id   integer;
  v_created_at timestamp(3);
  v_unit_price bigint;
  v_rule       text;
  v_level      bigint;
  v_contract   bigint;
  v_tier       bigint;
  v_amount     bigint;
  v_balance    bigint;
  v_taken      integer := 0;
  v_more       integer;
  v_ids        bigint[] := '{}';
  v_more_ids   bigint[];
BEGIN
  -- Issues 12.4 and 38 (decision 0094): the unit price is the lowest of the
  -- SKU's price (or the buyer's member-level price for it), the buyer's
  -- contract price and the SKU's tier for this quantity; on a tie the earlier
  -- of level/list, contract, tier names the rule. Read ONCE, here, and used
  -- for the item, the amount, max_total and the debit: one statement reads one
  -- snapshot, so a price changed meanwhile cannot mix in. Every lookup is by
  -- primary key or unique index. lib/catalog/buyer-prices.ts is the same rule
  -- for the catalogue; keep the two in step.
  SELECT s."priceCents", lp."priceCents", cp."priceCents", t."priceCents" INTO v_unit_price, v_level, v_contract, v_tier
  FROM "Sku" s
  LEFT JOIN "SkuLevelPrice" lp
    ON lp."skuId" = s."id" AND lp."levelId" = (SELECT u."memberLevelId" FROM "User" u WHERE u."id" = p_user_id)
  LEFT JOIN "ContractPrice" cp ON cp."userId" = p_user_id AND cp."skuId" = s."id"
  LEFT JOIN LATERAL (
    SELECT pt."priceCents" FROM "SkuPriceTier" pt
    WHERE pt."skuId" = s."id" AND pt."minQuantity" <= p_quantity
    ORDER BY pt."minQuantity" DESC LIMIT 1
  ) t ON true
  WHERE s."id" = p_sku_id;
  IF v_unit_price IS NULL THEN
    RAISE EXCEPTION 'place_order: no SKU %', p_sku_id; -- the caller checked it exists; SKUs are never deleted
  END IF;
  v_rule := 'list';
  IF v_level IS NOT NULL THEN v_unit_price := v_level; v_rule := 'level'; END IF;
  IF v_contract < v_unit_price THEN v_unit_price := v_contract; v_rule := 'contract'; END IF;
  IF v_tier < v_unit_price THEN v_unit_price := v_tier; v_rule := 'tier'; END IF;
  v_amount := v_unit_price * p_quantity;

  INSERT INTO "Order" ("orderNo", "credentialId", "userId", "profile", "downstreamOrderNo", "requestDigest", "requestRawDigest",
                       "traceId", "callbackUrl", "status", "amountCents", "manualFormData", "updatedAt", "completedAt")
  VALUES (p_order_no, p_credential_id, p_user_id, p_profile, p_downstream_no, p_request_digest, p_request_raw_digest,
          p_trace_id, p_callback_url, CASE WHEN p_auto THEN 'delivered' ELSE 'processing' END::"OrderStatus", v_amount,
          p_manual_form_data, now(), CASE WHEN p_auto THEN now() END)
  ON CONFLICT ("credentialId", "downstreamOrderNo") DO NOTHING
  RETURNING "id", "Order"."createdAt" INTO v_order_id, v_created_at;
  IF v_order_id IS NULL THEN
    RETURN; -- the same downstream order number is already stored (D18)
  END IF;
  -- Issue 38: the buyer's cap on this order's total (after the D18 check, so a repeat returns its order).
  IF v_amount > p_max_total_cents THEN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'max_total_exceeded';
  END IF;

  INSERT INTO "OrderItem" ("orderId", "productId", "skuId", "title", "quantity", "unitPriceCents", "totalPriceCents", "priceRule")
  VALUES (v_order_id, p_product_id, p_sku_id, p_title, p_quantity, v_unit_price, v_amount, v_rule);

  IF p_auto THEN
    -- Decision 0103: keys are picked from "KeyStock" (the available keys,
    -- kept by the "CardKey" triggers, which also take the picked ones out of
    -- it and record the order's key runs in "OrderKeyRange"); the key itself
    -- is updated by primary key and, with no index on its status or order,
    -- in place (HOT). The lock on the "KeyStock" row is the key's lock: a
    -- concurrent order skips it (or waits for it, below) exactly as it did
    -- for the key row. "c.status = 'available'" re-checks the key itself.
    -- Issue 28.1: this first pass starts after p_pick_after (the highest key
    -- this process saw delivered for the SKU), so it does not walk the index
    -- entries of the keys delivered since the last vacuum; when it comes up
    -- short, the passes below search from the first key, so no available
    -- key is ever passed over for good.
    -- Issue 28.1 (decision 0045, addendum): one key (nearly every order) needs
    -- no subtransaction. This pass locks a key only to update it, so it takes
    -- the one key or locks nothing, which is what rolling back a short pick
    -- leaves. Several keys keep the block: a short pick must let go of the
    -- keys it locked.
    IF p_quantity = 1 THEN
      WITH taken AS (
        UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
        WHERE c."id" = (
          SELECT s."keyId" FROM "KeyStock" s
          WHERE s."skuId" = p_sku_id AND s."keyId" > p_pick_after
          ORDER BY s."keyId"
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        ) AND c."status" = 'available'
        RETURNING c."id"
      ) SELECT coalesce(array_agg("id"), '{}') INTO v_ids FROM taken;
      v_taken := cardinality(v_ids);
    ELSE
      BEGIN
        WITH taken AS (
          UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
          WHERE c."id" = ANY (ARRAY(
            SELECT s."keyId" FROM "KeyStock" s
            WHERE s."skuId" = p_sku_id AND s."keyId" > p_pick_after
            ORDER BY s."keyId"
            LIMIT p_quantity
            FOR UPDATE SKIP LOCKED
          )) AND c."status" = 'available'
          RETURNING c."id"
        ) SELECT coalesce(array_agg("id"), '{}') INTO v_ids FROM taken;
        v_taken := cardinality(v_ids);
        IF v_taken < p_quantity THEN
          RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'short_pick';
        END IF;
      EXCEPTION WHEN raise_exception THEN
        IF SQLERRM <> 'short_pick' THEN RAISE; END IF;
        v_taken := 0; -- the subtransaction is rolled back: no key taken, no key locked
        v_ids := '{}';
      END;
    END IF;
    FOR pass IN 1..3 LOOP
      EXIT WHEN v_taken >= p_quantity;
      IF p_wait_for_keys THEN
        WITH taken AS (
          UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
          WHERE c."id" = ANY (ARRAY(
            SELECT s."keyId" FROM "KeyStock" s
            WHERE s."skuId" = p_sku_id
            ORDER BY s."keyId"
            LIMIT p_quantity - v_taken
            FOR UPDATE
          )) AND c."status" = 'available'
          RETURNING c."id"
        ) SELECT coalesce(array_agg("id"), '{}') INTO v_more_ids FROM taken;
      ELSE
        -- In a group (place_orders): a key another transaction holds fails
        -- this order's block at once (55P03) instead of waiting; the app
        -- places it again alone, with p_wait_for_keys.
        WITH taken AS (
          UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
          WHERE c."id" = ANY (ARRAY(
            SELECT s."keyId" FROM "KeyStock" s
            WHERE s."skuId" = p_sku_id
            ORDER BY s."keyId"
            LIMIT p_quantity - v_taken
            FOR UPDATE NOWAIT
          )) AND c."status" = 'available'
          RETURNING c."id"
        ) SELECT coalesce(array_agg("id"), '{}') INTO v_more_ids FROM taken;
      END IF;
      v_more := cardinality(v_more_ids);
      EXIT WHEN v_more = 0;
      v_taken := v_taken + v_more;
      v_ids := v_ids || v_more_ids;
    END LOOP;
    IF v_taken < p_quantity THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'insufficient_stock';
    END IF;
    INSERT INTO "Fulfillment" ("orderId", "source", "deliveryFormat", "payloadCiphertext")
    VALUES (v_order_id, 'auto', p_delivery_format, NULL);
  ELSE
    -- A number is limited stock, taken with a guarded UPDATE; NULL is unlimited.
    -- (A plain UPDATE waits for an order in flight on the same SKU row, so it
    -- never refuses on stock that a rolled-back order held.)
    UPDATE "Sku" SET "stockQuantity" = "stockQuantity" - p_quantity, "updatedAt" = now()
    WHERE "id" = p_sku_id AND "stockQuantity" >= p_quantity;
    IF NOT FOUND AND EXISTS (SELECT 1 FROM "Sku" WHERE "id" = p_sku_id AND "stockQuantity" IS NOT NULL) THEN
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'insufficient_stock';
    END IF;
  END IF;

  -- Issue 38: an order may take the balance down to minus the buyer's credit line (0: none).
  UPDATE "User" SET "balanceCents" = "balanceCents" - v_amount, "updatedAt" = now()
  WHERE "id" = p_user_id AND "balanceCents" - v_amount >= -"creditLimitCents"
  RETURNING "balanceCents" INTO v_balance;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'insufficient_balance';
  END IF;
  INSERT INTO "PointsLedger" ("userId", "deltaCents", "balanceAfterCents", "reason", "orderId")
  VALUES (p_user_id, -v_amount, v_balance, 'order ' || p_order_no, v_order_id);

  RETURN QUERY
    SELECT v_order_id, v_created_at, v_unit_price, k."id", k."ciphertext", v_rule
    FROM (SELECT 1) AS one
    LEFT JOIN "CardKey" k ON p_auto AND k."id" = ANY (v_ids)
    ORDER BY k."id";
END $$;

-- stamp_catalog (as in *_stamp_bulk): a SKU seen for the first time counts its
-- keys in "KeyStock" (the pick index that counted them is gone); the recount,
-- the safety net, still counts "CardKey" itself.
CREATE OR REPLACE FUNCTION stamp_catalog(p_thresholds integer[], p_recount boolean) RETURNS timestamp(6)
LANGUAGE plpgsql AS $$
DECLARE
  v_clock    timestamp(6);
  v_base     timestamp(6);
  v_all      boolean;
  v_products integer[];
  v_skus     integer[];
  v_deltas   integer[];
  v_new_skus integer[];
  v_touched  integer[];
  v_count    integer;
BEGIN
  IF current_setting('transaction_isolation') <> 'repeatable read' THEN
    RAISE EXCEPTION 'stamp_catalog must run in REPEATABLE READ';
  END IF;
  IF NOT pg_try_advisory_xact_lock(7368221) THEN
    RETURN NULL;
  END IF;
  SELECT "stamp" INTO v_clock FROM "CatalogClock" WHERE "id" = 1;

  WITH taken AS (DELETE FROM "CatalogChange" RETURNING "productId", "skuId", "stockDelta")
  SELECT coalesce(bool_or("productId" IS NULL AND "skuId" IS NULL), false),
         coalesce(array_agg(DISTINCT "productId") FILTER (WHERE "productId" IS NOT NULL), '{}'),
         coalesce(array_agg("skuId") FILTER (WHERE "skuId" IS NOT NULL), '{}'),
         coalesce(array_agg("stockDelta") FILTER (WHERE "skuId" IS NOT NULL), '{}')
  INTO v_all, v_products, v_skus, v_deltas FROM taken;

  -- A SKU seen for the first time is counted (the count already includes
  -- every delta of this snapshot); the others take their deltas.
  -- Two statements rather than one with "OR p_recount": the usual run (a few
  -- SKUs) must use the primary key, not scan every SKU.
  IF p_recount THEN
    WITH created AS (
      INSERT INTO "SkuStamp" ("skuId", "productId", "updatedAt", "availableKeys")
      SELECT s."id", s."productId", '1970-01-01',
             (SELECT count(*) FROM "KeyStock" k WHERE k."skuId" = s."id")
      FROM "Sku" s WHERE NOT EXISTS (SELECT 1 FROM "SkuStamp" t WHERE t."skuId" = s."id")
      RETURNING "skuId"
    ) SELECT coalesce(array_agg("skuId"), '{}') INTO v_new_skus FROM created;
  ELSE
    WITH created AS (
      INSERT INTO "SkuStamp" ("skuId", "productId", "updatedAt", "availableKeys")
      SELECT s."id", s."productId", '1970-01-01',
             (SELECT count(*) FROM "KeyStock" k WHERE k."skuId" = s."id")
      FROM "Sku" s WHERE s."id" = ANY (v_skus) AND NOT EXISTS (SELECT 1 FROM "SkuStamp" t WHERE t."skuId" = s."id")
      RETURNING "skuId"
    ) SELECT coalesce(array_agg("skuId"), '{}') INTO v_new_skus FROM created;
  END IF;

  UPDATE "SkuStamp" t SET "availableKeys" = t."availableKeys" + d.delta
  FROM (SELECT sku, sum(delta)::int AS delta FROM unnest(v_skus, v_deltas) AS u(sku, delta) GROUP BY sku) d
  WHERE t."skuId" = d.sku AND d.delta <> 0 AND NOT (t."skuId" = ANY (v_new_skus));

  IF p_recount THEN
    WITH counts AS (
      SELECT t."skuId", coalesce(c.n, 0) AS n FROM "SkuStamp" t LEFT JOIN (
        SELECT "skuId", count(*)::int AS n FROM "CardKey" WHERE "status" = 'available' GROUP BY "skuId"
      ) c ON c."skuId" = t."skuId"
    ), fixed AS (
      UPDATE "SkuStamp" t SET "availableKeys" = counts.n FROM counts
      WHERE t."skuId" = counts."skuId" AND t."availableKeys" <> counts.n
      RETURNING t."skuId"
    ) SELECT v_skus || coalesce(array_agg("skuId"), '{}') INTO v_skus FROM fixed;
    v_products := v_products || ARRAY(
      SELECT p."id" FROM "Product" p WHERE NOT EXISTS (SELECT 1 FROM "ProductStamp" s WHERE s."productId" = p."id"));
  END IF;

  IF v_all THEN
    v_touched := ARRAY(SELECT "id" FROM "Product" ORDER BY "id");
  ELSE
    v_touched := ARRAY(
      SELECT DISTINCT id FROM (
        SELECT unnest(v_products) AS id
        UNION ALL SELECT s."productId" FROM "Sku" s WHERE s."id" = ANY (v_skus)
      ) ids WHERE EXISTS (SELECT 1 FROM "Product" p WHERE p."id" = ids.id) ORDER BY id);
  END IF;
  v_count := coalesce(array_length(v_touched, 1), 0);
  IF v_count = 0 THEN
    RETURN v_clock;
  END IF;

  -- Unique, increasing stamps: one microsecond apart, all after the clock.
  v_base := greatest((clock_timestamp() AT TIME ZONE 'UTC')::timestamp(6), v_clock + interval '1 microsecond');
  INSERT INTO "ProductStamp" ("productId", "updatedAt", "notifiedAt", "notifyDigest")
  SELECT id, v_base + (n - 1) * interval '1 microsecond', '1970-01-01', ''
  FROM unnest(v_touched) WITH ORDINALITY AS u(id, n)
  ON CONFLICT ("productId") DO UPDATE SET "updatedAt" = EXCLUDED."updatedAt";

  UPDATE "SkuStamp" t SET "updatedAt" = ps."updatedAt", "productId" = s."productId"
  FROM "Sku" s JOIN "ProductStamp" ps ON ps."productId" = s."productId"
  WHERE t."skuId" = ANY (v_skus || v_new_skus) AND s."id" = t."skuId";

  -- What a catalogue event reports (issue 12.2): price, active flag, listing,
  -- the SKU set, level prices, and the stock band (the number of thresholds
  -- the stock is above; NULL stock is unlimited). A quantity that moves
  -- within one band changes updated_at but not this digest.
  UPDATE "ProductStamp" ps SET "notifyDigest" = d.digest, "notifiedAt" = ps."updatedAt"
  FROM (
    SELECT p."id", md5(concat_ws('|', p."isActive", p."priceCents",
             (p."deletedAt" IS NULL AND c."deletedAt" IS NULL),
             (SELECT string_agg(concat_ws(',', s."id", s."priceCents", s."isActive", s."deletedAt" IS NULL,
                       CASE WHEN x.stock IS NULL THEN 'u'
                            ELSE (SELECT count(*) FROM unnest(p_thresholds) AS th(v) WHERE x.stock > th.v)::text END,
                       (SELECT string_agg(lp."levelId" || ':' || lp."priceCents", ' ' ORDER BY lp."levelId")
                        FROM "SkuLevelPrice" lp WHERE lp."skuId" = s."id")), ';' ORDER BY s."id")
              FROM "Sku" s LEFT JOIN "SkuStamp" st ON st."skuId" = s."id"
              -- OFFSET 0: computed once per SKU, not once per use of x.stock below.
              CROSS JOIN LATERAL (SELECT sku_visible_stock(s."id", p."fulfillmentType" = 'auto', st."availableKeys", s."stockQuantity") AS stock OFFSET 0) x
              WHERE s."productId" = p."id"))) AS digest
    FROM "Product" p LEFT JOIN "Category" c ON c."id" = p."categoryId"
    WHERE p."id" = ANY (v_touched)
  ) d
  WHERE ps."productId" = d."id" AND ps."notifyDigest" IS DISTINCT FROM d.digest;

  v_clock := v_base + (v_count - 1) * interval '1 microsecond';
  UPDATE "CatalogClock" SET "stamp" = v_clock WHERE "id" = 1;
  RETURN v_clock;
END $$;
