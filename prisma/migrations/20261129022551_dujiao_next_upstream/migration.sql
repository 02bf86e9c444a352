-- Issue 37.3 (decision 0092): buying from Dujiao-Next suppliers.

-- The protocol an upstream connection speaks: ours (svc, as before) or Dujiao-Next's docking protocol.
CREATE TYPE "UpstreamProtocol" AS ENUM ('svc', 'dujiao_next');
ALTER TABLE "UpstreamConnection" ADD COLUMN "protocol" "UpstreamProtocol" NOT NULL DEFAULT 'svc';

-- One run of a purchase at a time calls its upstream (a Dujiao-Next supplier's
-- duplicate check of downstream_order_no has no unique index: two creates of one
-- number at once could buy twice).
ALTER TABLE "UpstreamPurchase" ADD COLUMN "callLeaseUntil" TIMESTAMP(3);
