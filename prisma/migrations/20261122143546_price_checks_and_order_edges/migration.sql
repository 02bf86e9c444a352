-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "requestRawDigest" TEXT;

-- ---- Hand-written: issue 8.3, prices can never mint points ----

-- A price below zero would credit the buyer on every order (place_order debits
-- price × quantity). Rows that already carry one (an upstream import accepted
-- them before issue 8.3) are taken off sale and set to 0.00 so the constraints
-- hold; an administrator sets a real price before selling them again.
UPDATE "Product" SET "isActive" = false, "priceCents" = GREATEST("priceCents", 0),
  "originalPriceCents" = GREATEST("originalPriceCents", 0), "updatedAt" = now()
WHERE "priceCents" < 0 OR "originalPriceCents" < 0;
UPDATE "Sku" SET "isActive" = false, "priceCents" = 0, "updatedAt" = now() WHERE "priceCents" < 0;
-- A negative cost reported by an upstream is not a cost we know.
UPDATE "UpstreamPurchase" SET "costCents" = NULL WHERE "costCents" < 0;

ALTER TABLE "Product" ADD CONSTRAINT "Product_prices_non_negative" CHECK ("priceCents" >= 0 AND "originalPriceCents" >= 0);
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_price_non_negative" CHECK ("priceCents" >= 0);
ALTER TABLE "UpstreamPurchase" ADD CONSTRAINT "UpstreamPurchase_cost_non_negative" CHECK ("costCents" IS NULL OR "costCents" >= 0);

-- Orders are history: one that already minted points is evidence for the
-- operator's reconciliation and is not rewritten. So the order constraints are
-- added NOT VALID (every new or changed row is checked) and validated at once
-- when no such order exists, which is the case on every installation that
-- never imported a negative price.
ALTER TABLE "Order" ADD CONSTRAINT "Order_amount_non_negative" CHECK ("amountCents" >= 0) NOT VALID;
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_amounts_non_negative"
  CHECK ("quantity" > 0 AND "unitPriceCents" >= 0 AND "totalPriceCents" >= 0) NOT VALID;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "Order" WHERE "amountCents" < 0) THEN
    ALTER TABLE "Order" VALIDATE CONSTRAINT "Order_amount_non_negative";
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "OrderItem" WHERE "quantity" <= 0 OR "unitPriceCents" < 0 OR "totalPriceCents" < 0) THEN
    ALTER TABLE "OrderItem" VALIDATE CONSTRAINT "OrderItem_amounts_non_negative";
  END IF;
END $$;

-- ---- Hand-written: place_order again (see 20261121104000_place_order) ----
-- Two changes, everything else as before:
--  * D18 (issue 8.7): p_request_raw_digest is stored with the order
--    ("requestRawDigest", lib/orders/request-digest.ts);
--  * issue 8.7: `FOR UPDATE SKIP LOCKED` alone refused insufficient_stock
--    while the free keys were only locked by an order in flight that then
--    rolled back. The fast path (SKIP LOCKED) now runs in a subtransaction; a
--    short pick is undone there (releasing its row locks) and the keys are
--    picked again with a plain FOR UPDATE, which waits for the orders in
--    flight: a key they roll back is taken, a key they deliver is skipped
--    (READ COMMITTED re-checks the status). Waiting orders lock in id order and
--    hold no key of the SKU while they wait, so they cannot deadlock each
--    other. At most three such passes.
DROP FUNCTION place_order(text, integer, uuid, "Profile", text, text, text, text, jsonb, integer, integer, jsonb, integer, bigint, boolean, "DeliveryFormat");

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
  p_unit_price_cents     bigint,
  p_auto                 boolean,
  p_delivery_format      "DeliveryFormat"
) RETURNS TABLE ("orderId" integer, "createdAt" timestamp(3), "keyId" bigint, "keyCiphertext" bytea)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_order_id   integer;
  v_created_at timestamp(3);
  v_amount     bigint := p_unit_price_cents * p_quantity;
  v_balance    bigint;
  v_taken      integer := 0;
  v_more       integer;
BEGIN
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
  VALUES (v_order_id, p_product_id, p_sku_id, p_title, p_quantity, p_unit_price_cents, v_amount);

  IF p_auto THEN
    -- Written so that only CardKey_available_pick ("skuId", "id") WHERE available
    -- can give the order (see the first place_order migration).
    BEGIN
      UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
      FROM (
        SELECT k."id" FROM "CardKey" k
        WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available'
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
    FOR pass IN 1..3 LOOP
      EXIT WHEN v_taken >= p_quantity;
      UPDATE "CardKey" c SET "status" = 'delivered', "orderId" = v_order_id, "deliveredAt" = now()
      FROM (
        SELECT k."id" FROM "CardKey" k
        WHERE k."skuId" = ANY (ARRAY[p_sku_id]) AND k."status" = 'available'
        ORDER BY k."skuId", k."id"
        LIMIT p_quantity - v_taken
        FOR UPDATE
      ) picked
      WHERE c."id" = picked."id";
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
    SELECT v_order_id, v_created_at, k."id", k."ciphertext"
    FROM (SELECT 1) AS one
    LEFT JOIN "CardKey" k ON p_auto AND k."orderId" = v_order_id
    ORDER BY k."id";
END $$;
