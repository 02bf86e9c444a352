-- Issue 13.3: a card key has an order only once it is delivered, yet every
-- imported key (NULL "orderId") took an entry in this index: one of the five
-- index insertions per key. Every query by order (the order's keys, the
-- foreign key's check when an order row goes) names an order id, which
-- implies NOT NULL, so the partial index serves them all.
DROP INDEX "CardKey_orderId_idx";
CREATE INDEX "CardKey_orderId_idx" ON "CardKey"("orderId") WHERE "orderId" IS NOT NULL;
