-- ---- Hand-written: several orders of one buyer in one statement (issue 28.1) ----
-- place_order debits the buyer's "User" row, and that row stays locked until
-- the order commits (the WAL flush included), so the orders of ONE buyer
-- pass one at a time, one commit flush each. The app now sends the orders of
-- a buyer that arrive while one of that buyer's orders is being written
-- together, as one call of place_orders: one round trip, one transaction,
-- one commit flush for up to 16 orders. Each order is still written by
-- place_order (unchanged: the same order, item, keys, fulfilment, debit and
-- ledger row), each in a block of its own, so one order's refusal
-- (insufficient_balance, insufficient_stock) or error rolls back only that
-- order's writes and the others commit. Decision 0045.
--
-- p_orders: a JSON array of objects with place_order's arguments by name
-- (lib/orders/place-order-batch.ts). Returns place_order's rows tagged with
-- the array index "i"; an order refused or failed returns one row with its
-- SQLSTATE, message and constraint; an order whose (credential,
-- downstream_order_no) was already stored returns no row (D18).
-- Each order uses at most two subtransactions (this block and place_order's
-- pick); the caller sends at most 16 orders so a backend keeps its
-- subtransaction ids in its cache of 64 (no suboverflowed snapshots).
CREATE FUNCTION place_orders(p_orders jsonb)
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
  FOR o IN SELECT e.value FROM jsonb_array_elements(p_orders) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord LOOP
    BEGIN
      RETURN QUERY
        SELECT n, r."orderId", r."createdAt", r."unitPriceCents", r."keyId", r."keyCiphertext", NULL::text, NULL::text, NULL::text
        FROM place_order(
          o->>'orderNo', (o->>'credentialId')::int, (o->>'userId')::uuid, (o->>'profile')::"Profile", o->>'downstreamOrderNo',
          o->>'requestDigest', o->>'requestRawDigest', o->>'traceId', o->>'callbackUrl', o->'manualFormData',
          (o->>'skuId')::int, (o->>'productId')::int, o->'title', (o->>'quantity')::int,
          (o->>'auto')::boolean, (o->>'deliveryFormat')::"DeliveryFormat") r;
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_msg = MESSAGE_TEXT, v_con = CONSTRAINT_NAME;
      RETURN QUERY SELECT n, NULL::integer, NULL::timestamp(3), NULL::bigint, NULL::bigint, NULL::bytea, v_state, v_msg, v_con;
    END;
    n := n + 1;
  END LOOP;
END $$;
