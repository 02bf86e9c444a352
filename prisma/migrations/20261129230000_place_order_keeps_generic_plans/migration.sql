-- ---- place_order keeps one generic plan per statement (issue 40.7) ----
-- A PL/pgSQL statement with parameters is planned for the values of its first
-- five runs; after that PostgreSQL keeps a generic plan only if it looks no
-- dearer than those. Two of place_order's statements never passed: the pick
-- (`"keyId" > p_pick_after ... LIMIT 1`: 2.32 generic against 0.58 for a known
-- value) and the answer (`k."id" = ANY (v_ids)`: 47.27 for 10 ids against 8.34
-- for one), so both were planned again for every order (BuildCachedPlan and
-- the planner: 12 % of a one-key order's time in the database, perf). Their
-- generic plans are the same index scans. One placing client, asynchronous
-- commit, `pgbench -M prepared` calling place_order: 663-675 -> 786 orders/s.
-- Every statement of the function (and what it fires) now uses its generic
-- plan; each is a primary-key or unique-index look-up whatever the values.
-- A later CREATE OR REPLACE of place_order must say it again:
-- lib/orders/place-order-plans.test.ts checks it.
ALTER FUNCTION place_order(text, integer, uuid, "Profile", text, text, text, text, text, jsonb, integer, integer, jsonb, integer, boolean, "DeliveryFormat", bigint, boolean, bigint)
  SET plan_cache_mode = force_generic_plan;
