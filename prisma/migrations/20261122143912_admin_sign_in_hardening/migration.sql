-- AlterTable
ALTER TABLE "AdminUser" DROP COLUMN "failedLoginCount",
DROP COLUMN "lockedUntil",
ADD COLUMN     "sessionVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "totpLastStep" INTEGER;

-- CreateTable
CREATE TABLE "AdminSignInCounter" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AdminSignInCounter_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "AdminSignInCounter_expiresAt_idx" ON "AdminSignInCounter"("expiresAt");

-- Recovery codes are now HMAC-SHA-256 with a key derived from SECRET_KEY; the
-- old unsalted SHA-256 hashes (of 40-bit codes) can never match again, so drop
-- them rather than keep dead rows. Admins regenerate codes by turning
-- two-factor off and on again (README, Admin console).
UPDATE "AdminUser" SET "recoveryCodeHashes" = '{}';
