-- Issue 25: operator alerts (channels, rules, thresholds, events, deliveries,
-- conditions), per-SKU stock and per-connection balance thresholds, the
-- language of alert messages. docs/alerts.md, docs/decisions/0041.
-- CreateEnum
CREATE TYPE "AlertChannelKind" AS ENUM ('telegram', 'email', 'webhook', 'wecom', 'dingtalk', 'feishu');

-- CreateEnum
CREATE TYPE "AlertDeliveryStatus" AS ENUM ('pending', 'sent', 'folded', 'failed');

-- AlterTable
ALTER TABLE "SiteSettings" ADD COLUMN     "language" TEXT NOT NULL DEFAULT 'zh-CN';

-- AlterTable
ALTER TABLE "Sku" ADD COLUMN     "alertStockThreshold" INTEGER;

-- AlterTable
ALTER TABLE "UpstreamConnection" ADD COLUMN     "alertBalanceCents" BIGINT;

-- CreateTable
CREATE TABLE "AlertChannel" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "AlertChannelKind" NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "secretCiphertext" BYTEA NOT NULL,
    "lastOkAt" TIMESTAMP(3),
    "lastErrorAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMP(3),
    "updateOffset" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "AlertChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertRule" (
    "channelId" INTEGER NOT NULL,
    "event" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("channelId","event")
);

-- CreateTable
CREATE TABLE "AlertTelegramBinding" (
    "telegramUserId" TEXT NOT NULL,
    "adminUserId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertTelegramBinding_pkey" PRIMARY KEY ("telegramUserId")
);

-- CreateTable
CREATE TABLE "AlertThreshold" (
    "event" TEXT NOT NULL,
    "value" INTEGER NOT NULL,

    CONSTRAINT "AlertThreshold_pkey" PRIMARY KEY ("event")
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertDelivery" (
    "id" BIGSERIAL NOT NULL,
    "eventId" BIGINT NOT NULL,
    "channelId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "status" "AlertDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertCondition" (
    "key" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertCondition_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "AlertEvent_dedupeKey_key" ON "AlertEvent"("dedupeKey");

-- CreateIndex
CREATE INDEX "AlertEvent_createdAt_idx" ON "AlertEvent"("createdAt");

-- CreateIndex
CREATE INDEX "AlertDelivery_channelId_kind_status_idx" ON "AlertDelivery"("channelId", "kind", "status");

-- CreateIndex
CREATE INDEX "AlertDelivery_createdAt_idx" ON "AlertDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertDelivery_eventId_channelId_key" ON "AlertDelivery"("eventId", "channelId");

-- AddForeignKey
ALTER TABLE "AlertRule" ADD CONSTRAINT "AlertRule_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "AlertChannel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertDelivery" ADD CONSTRAINT "AlertDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "AlertEvent"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertDelivery" ADD CONSTRAINT "AlertDelivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "AlertChannel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertTelegramBinding" ADD CONSTRAINT "AlertTelegramBinding_adminUserId_fkey" FOREIGN KEY ("adminUserId") REFERENCES "AdminUser"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Alert messages are written in one of the two languages the console speaks.
ALTER TABLE "SiteSettings" ADD CONSTRAINT "SiteSettings_language_check" CHECK ("language" IN ('zh-CN', 'en'));
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_alertStockThreshold_check" CHECK ("alertStockThreshold" IS NULL OR "alertStockThreshold" >= 0);
ALTER TABLE "UpstreamConnection" ADD CONSTRAINT "UpstreamConnection_alertBalanceCents_check" CHECK ("alertBalanceCents" IS NULL OR "alertBalanceCents" >= 0);
