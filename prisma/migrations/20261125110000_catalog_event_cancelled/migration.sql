-- Issue 22.9: a catalogue event of a disabled API key or buyer is cancelled,
-- never sent again (decision 0031). Catalogue events get their own status
-- type, so order callbacks (which keep CallbackStatus) cannot be cancelled.
CREATE TYPE "CatalogEventStatus" AS ENUM ('pending', 'delivered', 'failed', 'cancelled');

ALTER TABLE "CatalogEvent" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "CatalogEvent" ALTER COLUMN "status" TYPE "CatalogEventStatus" USING ("status"::text::"CatalogEventStatus");
ALTER TABLE "CatalogEvent" ALTER COLUMN "status" SET DEFAULT 'pending';
