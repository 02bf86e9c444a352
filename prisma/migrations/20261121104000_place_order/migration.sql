-- AlterTable
ALTER TABLE "Fulfillment" ALTER COLUMN "payloadCiphertext" DROP NOT NULL;

-- ---- Hand-written (see docs/decisions/order-hot-path.md) ----

-- An `auto` delivery stores no second copy of its keys: they are the CardKey
-- rows with this order id (encrypted there). Every other delivery carries its
-- encrypted lines.
ALTER TABLE "Fulfillment" ADD CONSTRAINT "Fulfillment_payload_unless_auto"
  CHECK ("payloadCiphertext" IS NOT NULL OR "source" = 'auto');

-- The whole write of a new supplier-API order as one statement, so that in
-- autocommit it is one round trip and one transaction (lib/orders/place-order.ts).
-- The caller has already checked SKU, product, points switch, form and callback
-- URL and computed the digest; this function does what must be atomic:
--  1. the order, ON CONFLICT on the idempotency index (credentialId,
--     downstreamOrderNo) DO NOTHING: a concurrent duplicate waits for the
--     first and then inserts nothing; the function then returns NO ROWS and
--     the caller loads the stored order and compares digests (D18);
--  2. its item (price and title snapshot);
--  3. `auto`: the card keys, FOR UPDATE SKIP LOCKED (parallel orders never get
--     the same key and never wait for each other), marked delivered, and the
--     Fulfillment row (no payload: the keys are the CardKey rows); else the
--     stock number of a limited SKU, guarded (NULL = unlimited);
--  4. last, the debit: a guarded UPDATE of the buyer's balance and the ledger
--     row with the balance after, the same invariant as changeBalance()
--     (lib/points/change-balance.ts). Last, because the UPDATE row-locks the
--     buyer until commit, which follows at once.
-- Refusals RAISE (rolling back everything above) with SQLSTATE P0001 and the
-- message insufficient_stock or insufficient_balance; the caller maps them.
-- Returns one row per delivered key in id order (keyId/keyCiphertext NULL
-- when none), all carrying the new order's id and createdAt.
CREATE FUNCTION place_order(
  p_order_no          text,
  p_credential_id     integer,
  p_user_id           uuid,
  p_profile           "Profile",
  p_downstream_no     text,
  p_request_digest    text,
  p_trace_id          text,
  p_callback_url      text,
  p_manual_form_data  jsonb,
  p_sku_id            integer,
  p_product_id        integer,
  p_title             jsonb,
  p_quantity          integer,
  p_unit_price_cents  bigint,
  p_auto              boolean,
  p_delivery_format   "DeliveryFormat"
) RETURNS TABLE ("orderId" integer, "createdAt" timestamp(3), "keyId" bigint, "keyCiphertext" bytea)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_order_id   integer;
  v_created_at timestamp(3);
  v_amount     bigint := p_unit_price_cents * p_quantity;
  v_balance    bigint;
  v_taken      integer;
BEGIN
  INSERT INTO "Order" ("orderNo", "credentialId", "userId", "profile", "downstreamOrderNo", "requestDigest", "traceId",
                       "callbackUrl", "status", "amountCents", "manualFormData", "updatedAt", "completedAt")
  VALUES (p_order_no, p_credential_id, p_user_id, p_profile, p_downstream_no, p_request_digest, p_trace_id,
          p_callback_url, CASE WHEN p_auto THEN 'delivered' ELSE 'processing' END::"OrderStatus", v_amount,
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
    -- can give the order: with "skuId" = <constant> and ORDER BY "id" the planner
    -- walks the primary key instead and steps over every delivered key (the
    -- oldest ids), which cost milliseconds per order once a SKU had sold a few
    -- thousand keys.
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
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'insufficient_stock';
    END IF;
    INSERT INTO "Fulfillment" ("orderId", "source", "deliveryFormat", "payloadCiphertext")
    VALUES (v_order_id, 'auto', p_delivery_format, NULL);
  ELSE
    -- A number is limited stock, taken with a guarded UPDATE; NULL is unlimited.
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
