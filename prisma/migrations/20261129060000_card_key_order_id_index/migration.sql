-- Issue 40.3 (decision 0095): a large order's answer reads its keys in id
-- order, a few thousand at a time ("orderId" = $1 AND "id" > $2 ORDER BY "id"
-- LIMIT n). On ("orderId") alone every page found and sorted all the order's
-- keys (100,000 for each of 25 pages); on ("orderId", "id") a page is one range
-- of the index. Still partial (issue 13.3: an undelivered key takes no entry),
-- and it serves every query by order id as the old one did.
DROP INDEX "CardKey_orderId_idx";
CREATE INDEX "CardKey_orderId_idx" ON "CardKey"("orderId", "id") WHERE "orderId" IS NOT NULL;
