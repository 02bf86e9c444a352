-- ---- A large order's keys are updated by key id, never by a join (issue 40.5) ----
-- place_order's picks of several keys joined the picked ids back to "CardKey"
-- (UPDATE ... FROM (SELECT ... LIMIT n FOR UPDATE) picked WHERE c.id = picked.id).
-- From a few thousand keys on, the planner joined them by hashing and read ALL
-- of "CardKey" once for the join: an order of 10,000 keys scanned a
-- 1,300,000-key table whole (auto_explain: Hash Join, Seq Scan rows=441166 on a
-- smaller copy), so a large order slowed down as the shop's stock grew.
-- Now those picks update the keys `WHERE c.id = ANY (ARRAY(picked ids))`: one
-- primary-key look-up per key, whatever the table's size. On a 1,300,000-key
-- table (docs/benchmarks.md, "Issue 40.5"): 10,000 keys 0.70-1.03 s -> 0.37-0.68 s.
-- The pick is the same: the same rows, the same order, the same locks (the
-- subquery still locks them FOR UPDATE [SKIP LOCKED | NOWAIT]); the one-key
-- pass (nearly every order) is unchanged. The function's signature is the same,
-- so place_orders is unchanged; everything else is as in
-- 20261129024712_contract_prices_and_credit.

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
    -- Written so that only CardKey_available_pick ("skuId", "id") WHERE available
    -- can give the order (see the first place_order migration).
    -- Issue 28.1: this first pass starts after p_pick_after (the highest key
    -- this process saw delivered for the SKU), so it does not walk the index
    -- entries of the keys delivered since the last vacuum; when it comes up
    -- short, the passes below search from the first key, so no available
    -- key is ever passed over for good.
    -- Issue 28.1 (decision 0045, addendum): one key (nearly every order) needs
    -- no subtransaction. This pass locks a key only to update it, so it takes
    -- the one key or locks nothing, which is what rolling back a short pick
    -- leaves; a subtransaction cost each order a subtransaction id, its
    -- pg_subtrans entry and one of the backend's 64 cached ones. Several keys
    -- keep the block: a short pick must let go of the keys it locked.
    IF p_quantity = 1 THEN
      UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
      FROM (
        SELECT k."id" FROM "CardKey" k
        WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available' AND k."id" > p_pick_after
        ORDER BY k."skuId", k."id"
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      ) picked
      WHERE c."id" = picked."id";
      GET DIAGNOSTICS v_taken = ROW_COUNT;
    ELSE
      BEGIN
        UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
        WHERE c."id" = ANY (ARRAY(
          SELECT k."id" FROM "CardKey" k
          WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available' AND k."id" > p_pick_after
          ORDER BY k."skuId", k."id"
          LIMIT p_quantity
          FOR UPDATE SKIP LOCKED
        ));
        GET DIAGNOSTICS v_taken = ROW_COUNT;
        IF v_taken < p_quantity THEN
          RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'short_pick';
        END IF;
      EXCEPTION WHEN raise_exception THEN
        IF SQLERRM <> 'short_pick' THEN RAISE; END IF;
        v_taken := 0; -- the subtransaction is rolled back: no key taken, no key locked
      END;
    END IF;
    FOR pass IN 1..3 LOOP
      EXIT WHEN v_taken >= p_quantity;
      IF p_wait_for_keys THEN
        UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
        WHERE c."id" = ANY (ARRAY(
          SELECT k."id" FROM "CardKey" k
          WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available'
          ORDER BY k."skuId", k."id"
          LIMIT p_quantity - v_taken
          FOR UPDATE
        ));
      ELSE
        -- In a group (place_orders): a key another transaction holds fails
        -- this order's block at once (55P03) instead of waiting; the app
        -- places it again alone, with p_wait_for_keys.
        UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
        WHERE c."id" = ANY (ARRAY(
          SELECT k."id" FROM "CardKey" k
          WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available'
          ORDER BY k."skuId", k."id"
          LIMIT p_quantity - v_taken
          FOR UPDATE NOWAIT
        ));
      END IF;
      GET DIAGNOSTICS v_more = ROW_COUNT;
      EXIT WHEN v_more = 0;
      v_taken := v_taken + v_more;
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
    LEFT JOIN "CardKey" k ON p_auto AND k."orderId" = v_order_id
    ORDER BY k."id";
END $$;
