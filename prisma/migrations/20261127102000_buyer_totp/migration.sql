-- Issue 24.1: optional two-factor for portal buyers, the same columns and
-- rules as "AdminUser" (lib/admin-auth/totp-account.ts). Off for every
-- existing buyer.
ALTER TABLE "User" ADD COLUMN "totpSecretCiphertext" BYTEA,
ADD COLUMN "totpEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "recoveryCodeHashes" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "totpLastStep" INTEGER;
