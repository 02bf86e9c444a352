-- Issue 36 (decision 0089): top-ups through payment gateways. A ledger row names the payment it credited,
-- unique: a payment is credited once whatever arrives how often.
-- CreateEnum
CREATE TYPE "PaymentDriver" AS ENUM ('epay', 'tokenpay', 'epusdt', 'stripe');

-- CreateEnum
CREATE TYPE "PaymentState" AS ENUM ('created', 'pending', 'paid', 'expired', 'failed', 'review');

-- AlterTable
ALTER TABLE "PointsLedger" ADD COLUMN     "paymentId" INTEGER;

-- CreateTable
CREATE TABLE "PaymentChannel" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "driver" "PaymentDriver" NOT NULL,
    "gatewayUrl" TEXT,
    "merchantId" TEXT,
    "keySealed" BYTEA NOT NULL,
    "webhookSecretSealed" BYTEA,
    "apiBase" TEXT,
    "currency" TEXT NOT NULL,
    "minCents" BIGINT NOT NULL DEFAULT 100,
    "maxCents" BIGINT NOT NULL DEFAULT 5000000,
    "expireMinutes" INTEGER NOT NULL DEFAULT 30,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PaymentChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" SERIAL NOT NULL,
    "paymentNo" TEXT NOT NULL,
    "channelId" INTEGER NOT NULL,
    "userId" UUID NOT NULL,
    "amountCents" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "state" "PaymentState" NOT NULL DEFAULT 'created',
    "payUrl" TEXT,
    "providerRef" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "paidAt" TIMESTAMP(3),
    "stateReason" TEXT,
    "confirmedBy" TEXT,
    "confirmReference" TEXT,
    "lastQueryAt" TIMESTAMP(3),
    "lastQueryAnswer" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Payment_amount_positive" CHECK ("amountCents" > 0)
);

-- CreateTable
CREATE TABLE "PaymentNotify" (
    "id" BIGSERIAL NOT NULL,
    "channelId" INTEGER NOT NULL,
    "paymentId" INTEGER,
    "method" TEXT NOT NULL,
    "fields" JSONB NOT NULL,
    "outcome" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaymentNotify_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PaymentChannel_name_key" ON "PaymentChannel"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_paymentNo_key" ON "Payment"("paymentNo");

-- CreateIndex
CREATE INDEX "Payment_userId_createdAt_idx" ON "Payment"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Payment_state_expiresAt_idx" ON "Payment"("state", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_channelId_providerRef_key" ON "Payment"("channelId", "providerRef");

-- CreateIndex
CREATE INDEX "PaymentNotify_paymentId_idx" ON "PaymentNotify"("paymentId");

-- CreateIndex
CREATE INDEX "PaymentNotify_channelId_receivedAt_idx" ON "PaymentNotify"("channelId", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PointsLedger_paymentId_key" ON "PointsLedger"("paymentId");

-- AddForeignKey
ALTER TABLE "PointsLedger" ADD CONSTRAINT "PointsLedger_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "PaymentChannel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentNotify" ADD CONSTRAINT "PaymentNotify_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE SET NULL ON UPDATE CASCADE;
