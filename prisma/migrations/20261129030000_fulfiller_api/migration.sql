-- Issue 39 (decision 0093): the fulfiller API. Tokens (hashed), leases on
-- manual orders, idempotency keys and webhook pushes, in PostgreSQL so every
-- instance sees the same state.
CREATE TABLE "FulfillerToken" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "productIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "webhookUrl" TEXT,
    "webhookSecretCiphertext" BYTEA,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "FulfillerToken_pkey" PRIMARY KEY ("id"),
    -- A webhook has its secret, and only then.
    CONSTRAINT "FulfillerToken_webhook_secret" CHECK (("webhookUrl" IS NULL) = ("webhookSecretCiphertext" IS NULL))
);
CREATE UNIQUE INDEX "FulfillerToken_name_key" ON "FulfillerToken"("name");
CREATE UNIQUE INDEX "FulfillerToken_tokenHash_key" ON "FulfillerToken"("tokenHash");

CREATE TABLE "FulfillerLease" (
    "orderId" INTEGER NOT NULL,
    "tokenId" INTEGER NOT NULL,
    "leaseUntil" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "FulfillerLease_pkey" PRIMARY KEY ("orderId")
);
CREATE INDEX "FulfillerLease_tokenId_idx" ON "FulfillerLease"("tokenId");
ALTER TABLE "FulfillerLease" ADD CONSTRAINT "FulfillerLease_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "FulfillerToken"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "FulfillerIdempotency" (
    "tokenId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "FulfillerIdempotency_pkey" PRIMARY KEY ("tokenId","key")
);

CREATE TABLE "FulfillerEvent" (
    "id" SERIAL NOT NULL,
    "tokenId" INTEGER NOT NULL,
    "orderId" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "status" "CatalogEventStatus" NOT NULL DEFAULT 'pending',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "FulfillerEvent_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "FulfillerEvent_tokenId_orderId_key" ON "FulfillerEvent"("tokenId", "orderId");
CREATE INDEX "FulfillerEvent_status_idx" ON "FulfillerEvent"("status");
ALTER TABLE "FulfillerEvent" ADD CONSTRAINT "FulfillerEvent_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "FulfillerToken"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
