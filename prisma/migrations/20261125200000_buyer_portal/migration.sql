-- Issue 24: the buyer portal (docs/decisions/0038-buyer-portal-sign-in.md,
-- 0039-api-secret-rotation-overlap.md).

-- A buyer's portal login. passwordHash NULL = no login yet (invited, or
-- API-only). registrationPending: signed up while buyer_registration =
-- approval, and not yet approved (may sign in, may not create keys or order).
ALTER TABLE "User" ADD COLUMN "passwordHash" TEXT;
ALTER TABLE "User" ADD COLUMN "registrationPending" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "User" ADD COLUMN "lastLoginAt" TIMESTAMP(3);

-- Server-side portal sessions: the cookie holds a random token, the table its
-- SHA-256, so each session can be listed and revoked, and disabling a buyer
-- ends them at once.
CREATE TABLE "BuyerSession" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "BuyerSession_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "BuyerSession_tokenHash_key" ON "BuyerSession"("tokenHash");
CREATE INDEX "BuyerSession_userId_idx" ON "BuyerSession"("userId");
ALTER TABLE "BuyerSession" ADD CONSTRAINT "BuyerSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One-time links (invitation, password reset): only the SHA-256 of the token is kept.
CREATE TABLE "BuyerLink" (
    "id" SERIAL NOT NULL,
    "userId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "BuyerLink_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "BuyerLink_kind_check" CHECK ("kind" IN ('invite', 'reset'))
);
CREATE UNIQUE INDEX "BuyerLink_tokenHash_key" ON "BuyerLink"("tokenHash");
CREATE INDEX "BuyerLink_userId_idx" ON "BuyerLink"("userId");
ALTER TABLE "BuyerLink" ADD CONSTRAINT "BuyerLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Top-up requests: the buyer asks, an administrator approves (a ledger row,
-- ledgerId) or rejects (a reason). Decided once: state leaves 'pending' once.
CREATE TYPE "TopUpState" AS ENUM ('pending', 'approved', 'rejected');
CREATE TABLE "TopUpRequest" (
    "id" SERIAL NOT NULL,
    "userId" UUID NOT NULL,
    "amountCents" BIGINT NOT NULL,
    "transferReference" TEXT NOT NULL,
    "state" "TopUpState" NOT NULL DEFAULT 'pending',
    "rejectReason" TEXT,
    "decidedBy" TEXT,
    "decidedAt" TIMESTAMP(3),
    "ledgerId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TopUpRequest_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "TopUpRequest_amount_check" CHECK ("amountCents" > 0),
    CONSTRAINT "TopUpRequest_decision_check" CHECK (
        ("state" = 'pending' AND "decidedAt" IS NULL AND "ledgerId" IS NULL)
        OR ("state" = 'approved' AND "decidedAt" IS NOT NULL AND "ledgerId" IS NOT NULL)
        OR ("state" = 'rejected' AND "decidedAt" IS NOT NULL AND "ledgerId" IS NULL AND "rejectReason" IS NOT NULL))
);
CREATE UNIQUE INDEX "TopUpRequest_ledgerId_key" ON "TopUpRequest"("ledgerId");
CREATE INDEX "TopUpRequest_userId_idx" ON "TopUpRequest"("userId");
CREATE INDEX "TopUpRequest_state_idx" ON "TopUpRequest"("state");
ALTER TABLE "TopUpRequest" ADD CONSTRAINT "TopUpRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Decision 0039: a rotated key's previous secret keeps working until previousSecretUntil.
ALTER TABLE "ApiCredential" ADD COLUMN "previousSecretCiphertext" BYTEA;
ALTER TABLE "ApiCredential" ADD COLUMN "previousSecretUntil" TIMESTAMP(3);
ALTER TABLE "ApiCredential" ADD CONSTRAINT "ApiCredential_previous_secret_check"
    CHECK (("previousSecretCiphertext" IS NULL) = ("previousSecretUntil" IS NULL));

ALTER TABLE "SiteSettings" ADD COLUMN "buyerRegistration" TEXT NOT NULL DEFAULT 'off';
ALTER TABLE "SiteSettings" ADD CONSTRAINT "SiteSettings_buyerRegistration_check" CHECK ("buyerRegistration" IN ('off', 'approval'));
