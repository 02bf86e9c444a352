-- ---- A group of orders never waits for a key (issue 26.2 again, decision 0088) ----
-- place_order gains p_wait_for_keys (default true: an order placed alone
-- waits, as before). place_orders passes false: the second pass takes the
-- first available key FOR UPDATE NOWAIT, so a group's block that meets a key
-- another transaction holds fails at once (55P03) and the app places that
-- order again alone (lib/orders/place-order-batch.ts).
--
-- Why: with the 200 ms lock_timeout alone, a group still held the keys its
-- earlier blocks took while a later block waited up to 200 ms for another
-- group's key. An order placed alone, queued on a key the first group held,
-- waited past deadlock_timeout (1 s), ran the deadlock check while the two
-- groups waited on each other, and was itself the victim (40P01) - three
-- times running for about 1 order in 800 under the issue 26.2 burst. Now no
-- group ever waits for a key, so no cycle through keys includes a group; an
-- order alone holds no key while it waits (one key: pass 1 took none; several:
-- its short pick was rolled back).
-- Everything else in both functions is as in 20261127105000_order_cost and
-- 20261127160000_audit26.
DROP FUNCTION place_order(text, integer, uuid, "Profile", text, text, text, text, text, jsonb, integer, integer, jsonb, integer, boolean, "DeliveryFormat", bigint);

CREATE FUNCTION place_order(
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
  p_wait_for_keys        boolean DEFAULT true
) RETURNS TABLE ("orderId" integer, "createdAt" timestamp(3), "unitPriceCents" bigint, "keyId" bigint, "keyCiphertext" bytea)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_order_id   integer;
  v_created_at timestamp(3);
  v_unit_price bigint;
  v_amount     bigint;
  v_balance    bigint;
  v_taken      integer := 0;
  v_more       integer;
BEGIN
  -- Issue 12.4: the price of the buyer's member level for this SKU, else the
  -- SKU's price; read ONCE, here, and used for the item, the amount and the
  -- debit. One statement reads one snapshot, so the two prices cannot come
  -- from different moments; both lookups are by unique index.
  SELECT COALESCE(lp."priceCents", s."priceCents") INTO v_unit_price
  FROM "Sku" s
  LEFT JOIN "SkuLevelPrice" lp
    ON lp."skuId" = s."id" AND lp."levelId" = (SELECT u."memberLevelId" FROM "User" u WHERE u."id" = p_user_id)
  WHERE s."id" = p_sku_id;
  IF v_unit_price IS NULL THEN
    RAISE EXCEPTION 'place_order: no SKU %', p_sku_id; -- the caller checked it exists; SKUs are never deleted
  END IF;
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

  INSERT INTO "OrderItem" ("orderId", "productId", "skuId", "title", "quantity", "unitPriceCents", "totalPriceCents")
  VALUES (v_order_id, p_product_id, p_sku_id, p_title, p_quantity, v_unit_price, v_amount);

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
        FROM (
          SELECT k."id" FROM "CardKey" k
          WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available' AND k."id" > p_pick_after
          ORDER BY k."skuId", k."id"
          LIMIT p_quantity
          FOR UPDATE SKIP LOCKED
        ) picked
        WHERE c."id" = picked."id";
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
        FROM (
          SELECT k."id" FROM "CardKey" k
          WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available'
          ORDER BY k."skuId", k."id"
          LIMIT p_quantity - v_taken
          FOR UPDATE
        ) picked
        WHERE c."id" = picked."id";
      ELSE
        -- In a group (place_orders): a key another transaction holds fails
        -- this order's block at once (55P03) instead of waiting; the app
        -- places it again alone, with p_wait_for_keys.
        UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
        FROM (
          SELECT k."id" FROM "CardKey" k
          WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available'
          ORDER BY k."skuId", k."id"
          LIMIT p_quantity - v_taken
          FOR UPDATE NOWAIT
        ) picked
        WHERE c."id" = picked."id";
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

  UPDATE "User" SET "balanceCents" = "balanceCents" - v_amount, "updatedAt" = now()
  WHERE "id" = p_user_id AND "balanceCents" >= v_amount
  RETURNING "balanceCents" INTO v_balance;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'insufficient_balance';
  END IF;
  INSERT INTO "PointsLedger" ("userId", "deltaCents", "balanceAfterCents", "reason", "orderId")
  VALUES (p_user_id, -v_amount, v_balance, 'order ' || p_order_no, v_order_id);

  RETURN QUERY
    SELECT v_order_id, v_created_at, v_unit_price, k."id", k."ciphertext"
    FROM (SELECT 1) AS one
    LEFT JOIN "CardKey" k ON p_auto AND k."orderId" = v_order_id
    ORDER BY k."id";
END $$;

CREATE OR REPLACE FUNCTION place_orders(p_orders jsonb)
RETURNS TABLE ("i" integer, "orderId" integer, "createdAt" timestamp(3), "unitPriceCents" bigint, "keyId" bigint, "keyCiphertext" bytea,
               "errState" text, "errMessage" text, "errConstraint" text)
LANGUAGE plpgsql AS $$
DECLARE
  o       jsonb;
  n       integer := 0;
  v_state text;
  v_msg   text;
  v_con   text;
BEGIN
  PERFORM set_config('lock_timeout', '200ms', true);
  FOR o IN SELECT e.value FROM jsonb_array_elements(p_orders) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord LOOP
    BEGIN
      RETURN QUERY
        SELECT n, r."orderId", r."createdAt", r."unitPriceCents", r."keyId", r."keyCiphertext", NULL::text, NULL::text, NULL::text
        FROM place_order(
          o->>'orderNo', (o->>'credentialId')::int, (o->>'userId')::uuid, (o->>'profile')::"Profile", o->>'downstreamOrderNo',
          o->>'requestDigest', o->>'requestRawDigest', o->>'traceId', o->>'callbackUrl', o->'manualFormData',
          (o->>'skuId')::int, (o->>'productId')::int, o->'title', (o->>'quantity')::int,
          (o->>'auto')::boolean, (o->>'deliveryFormat')::"DeliveryFormat", COALESCE((o->>'pickAfter')::bigint, 0), false) r;
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_msg = MESSAGE_TEXT, v_con = CONSTRAINT_NAME;
      RETURN QUERY SELECT n, NULL::integer, NULL::timestamp(3), NULL::bigint, NULL::bigint, NULL::bytea, v_state, v_msg, v_con;
    END;
    n := n + 1;
  END LOOP;
END $$;
