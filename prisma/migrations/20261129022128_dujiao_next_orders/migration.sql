-- Issue 37.1 (decision 0090): the protocol an order's create came in, for its callbacks' shape and signing.
CREATE TYPE "WireDialect" AS ENUM ('svc', 'dujiao_next');

ALTER TABLE "Order" ADD COLUMN "wireDialect" "WireDialect" NOT NULL DEFAULT 'svc';
