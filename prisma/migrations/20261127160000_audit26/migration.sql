-- ---- place_orders: a group never waits long for a lock (issue 26.2, decision 0058) ----
-- As in 20261127100000_order_speed (same argument and results), except that
-- the statement's transaction waits at most 200 ms for any one lock.
--
-- A group holds the keys its earlier blocks took while a later block waits
-- in place_order's second pass (FOR UPDATE) for a key another transaction
-- holds. When a SKU's last keys are fought over (issue 26.2: keys running
-- out, an upstream source behind them), two groups wait for each other, or a
-- group for an order queued behind a key the first group holds: PostgreSQL
-- breaks the cycle after deadlock_timeout (1 s) by failing one of them. Now
-- the group's block gives up first (55P03 lock_not_available, below the
-- 1 s), only that order's writes roll back, and the app places that order in
-- a statement of its own (lib/orders/place-order-batch.ts), which waits as
-- long as it must and holds no other order's key meanwhile.
-- set_config(..., true) lasts until the end of this statement's transaction
-- (the statement is its own transaction on the pool).
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
          (o->>'auto')::boolean, (o->>'deliveryFormat')::"DeliveryFormat", COALESCE((o->>'pickAfter')::bigint, 0)) r;
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_msg = MESSAGE_TEXT, v_con = CONSTRAINT_NAME;
      RETURN QUERY SELECT n, NULL::integer, NULL::timestamp(3), NULL::bigint, NULL::bigint, NULL::bytea, v_state, v_msg, v_con;
    END;
    n := n + 1;
  END LOOP;
END $$;
