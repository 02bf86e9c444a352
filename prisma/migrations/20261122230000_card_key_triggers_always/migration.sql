-- Issue 13.3, decision 0024: the card-key import moves keys with
-- session_replication_role = replica for that one INSERT, so PostgreSQL
-- skips the per-row foreign-key checks (the move checks them per statement
-- instead). Triggers fire in that mode only when enabled ALWAYS: the
-- catalogue change journal must see every key, whatever the mode.
ALTER TABLE "CardKey" ENABLE ALWAYS TRIGGER "CardKey_catalog_change_insert";
ALTER TABLE "CardKey" ENABLE ALWAYS TRIGGER "CardKey_catalog_change_update";
ALTER TABLE "CardKey" ENABLE ALWAYS TRIGGER "CardKey_catalog_change_delete";
