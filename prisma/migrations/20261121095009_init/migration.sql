-- CreateEnum
CREATE TYPE "UserStatus" AS ENUM ('active', 'disabled');

-- CreateEnum
CREATE TYPE "FulfillmentType" AS ENUM ('auto', 'manual', 'upstream');

-- CreateEnum
CREATE TYPE "DeliveryFormat" AS ENUM ('text', 'account_password', 'card_password', 'apple_account');

-- CreateEnum
CREATE TYPE "CardKeyStatus" AS ENUM ('available', 'delivered');

-- CreateEnum
CREATE TYPE "Profile" AS ENUM ('U', 'P');

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('processing', 'unknown_review', 'delivered', 'failed');

-- CreateEnum
CREATE TYPE "FulfillmentSource" AS ENUM ('auto', 'manual', 'upstream');

-- CreateEnum
CREATE TYPE "CallbackStatus" AS ENUM ('pending', 'delivered', 'failed');

-- CreateEnum
CREATE TYPE "UpstreamPurchaseStatus" AS ENUM ('pending', 'placed', 'delivered', 'failed', 'unknown');

-- CreateTable
CREATE TABLE "MemberLevel" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" JSONB NOT NULL,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "sortOrder" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MemberLevel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "status" "UserStatus" NOT NULL DEFAULT 'active',
    "memberLevelId" INTEGER NOT NULL,
    "balanceCents" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PointsLedger" (
    "id" BIGSERIAL NOT NULL,
    "userId" UUID NOT NULL,
    "deltaCents" BIGINT NOT NULL,
    "balanceAfterCents" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "orderId" INTEGER,
    "adminUserId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PointsLedger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteSettings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "instanceId" UUID NOT NULL,
    "siteName" TEXT NOT NULL DEFAULT 'Card Key Supplier',
    "publicBaseUrl" TEXT NOT NULL DEFAULT 'http://localhost:3000',
    "imageExposure" BOOLEAN NOT NULL DEFAULT true,
    "pointsDebitEnabled" BOOLEAN NOT NULL DEFAULT true,
    "rateLimitPerKey" INTEGER NOT NULL DEFAULT 120,
    "rateLimitPerIp" INTEGER NOT NULL DEFAULT 300,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SiteSettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Category" (
    "id" SERIAL NOT NULL,
    "parentId" INTEGER,
    "slug" TEXT NOT NULL,
    "name" JSONB NOT NULL,
    "sortOrder" INTEGER NOT NULL DEFAULT 0,
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "upstreamConnectionId" INTEGER,
    "upstreamCategoryId" INTEGER,

    CONSTRAINT "Category_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Product" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "categoryId" INTEGER NOT NULL,
    "title" JSONB NOT NULL,
    "description" JSONB NOT NULL,
    "content" JSONB NOT NULL,
    "fulfillmentType" "FulfillmentType" NOT NULL DEFAULT 'auto',
    "deliveryFormat" "DeliveryFormat" NOT NULL DEFAULT 'text',
    "deliveryDelimiter" TEXT NOT NULL DEFAULT '----',
    "manualFormSchema" JSONB NOT NULL DEFAULT '{"fields": []}',
    "logo" TEXT NOT NULL DEFAULT '',
    "images" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "priceCents" BIGINT NOT NULL,
    "originalPriceCents" BIGINT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "upstreamConnectionId" INTEGER,
    "upstreamProductId" INTEGER,

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Sku" (
    "id" SERIAL NOT NULL,
    "productId" INTEGER NOT NULL,
    "skuCode" TEXT NOT NULL,
    "specValues" JSONB NOT NULL DEFAULT '{}',
    "priceCents" BIGINT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "stockQuantity" INTEGER,
    "sortOrder" INTEGER NOT NULL DEFAULT 0,
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "upstreamSkuId" INTEGER,

    CONSTRAINT "Sku_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardKeyBatch" (
    "id" SERIAL NOT NULL,
    "skuId" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "keyCount" INTEGER NOT NULL,
    "adminUserId" INTEGER,
    "undoneAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardKeyBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardKey" (
    "id" BIGSERIAL NOT NULL,
    "skuId" INTEGER NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" "CardKeyStatus" NOT NULL DEFAULT 'available',
    "orderId" INTEGER,
    "batchId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "CardKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiCredential" (
    "id" SERIAL NOT NULL,
    "apiKey" TEXT NOT NULL,
    "secretCiphertext" BYTEA NOT NULL,
    "userId" UUID NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "lastUsedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" TIMESTAMP(3),

    CONSTRAINT "ApiCredential_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReplayRecord" (
    "credentialId" INTEGER NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "signature" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReplayRecord_pkey" PRIMARY KEY ("credentialId","timestamp","signature")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" SERIAL NOT NULL,
    "orderNo" TEXT NOT NULL,
    "credentialId" INTEGER NOT NULL,
    "userId" UUID NOT NULL,
    "profile" "Profile" NOT NULL,
    "downstreamOrderNo" TEXT NOT NULL,
    "requestDigest" TEXT NOT NULL,
    "traceId" TEXT,
    "callbackUrl" TEXT,
    "status" "OrderStatus" NOT NULL DEFAULT 'processing',
    "amountCents" BIGINT NOT NULL,
    "errorMessage" TEXT,
    "manualFormData" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderItem" (
    "id" SERIAL NOT NULL,
    "orderId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "skuId" INTEGER NOT NULL,
    "title" JSONB NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unitPriceCents" BIGINT NOT NULL,
    "totalPriceCents" BIGINT NOT NULL,

    CONSTRAINT "OrderItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fulfillment" (
    "id" SERIAL NOT NULL,
    "orderId" INTEGER NOT NULL,
    "source" "FulfillmentSource" NOT NULL,
    "deliveryFormat" "DeliveryFormat" NOT NULL,
    "payloadCiphertext" BYTEA NOT NULL,
    "adminUserId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Fulfillment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Callback" (
    "id" SERIAL NOT NULL,
    "orderId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" "CallbackStatus" NOT NULL DEFAULT 'pending',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Callback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CallbackAttempt" (
    "id" SERIAL NOT NULL,
    "callbackId" INTEGER NOT NULL,
    "httpStatus" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CallbackAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UpstreamConnection" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "profile" "Profile" NOT NULL,
    "apiKey" TEXT NOT NULL,
    "secretCiphertext" BYTEA NOT NULL,
    "maxWaitSeconds" INTEGER NOT NULL DEFAULT 1800,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "lastPingAt" TIMESTAMP(3),
    "lastPingOk" BOOLEAN,
    "lastBalance" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UpstreamConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UpstreamPurchase" (
    "id" SERIAL NOT NULL,
    "orderId" INTEGER NOT NULL,
    "connectionId" INTEGER NOT NULL,
    "downstreamOrderNo" TEXT NOT NULL,
    "upstreamSkuId" INTEGER NOT NULL,
    "upstreamOrderId" INTEGER,
    "costCents" BIGINT,
    "status" "UpstreamPurchaseStatus" NOT NULL DEFAULT 'pending',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "deadlineAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UpstreamPurchase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AdminUser" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "totpSecretCiphertext" BYTEA,
    "totpEnabled" BOOLEAN NOT NULL DEFAULT false,
    "recoveryCodeHashes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "failedLoginCount" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "locale" TEXT,
    "lastLoginAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AdminUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" BIGSERIAL NOT NULL,
    "adminUserId" INTEGER,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "ip" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "MemberLevel_slug_key" ON "MemberLevel"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "PointsLedger_userId_id_idx" ON "PointsLedger"("userId", "id");

-- CreateIndex
CREATE INDEX "PointsLedger_orderId_idx" ON "PointsLedger"("orderId");

-- CreateIndex
CREATE UNIQUE INDEX "Category_slug_key" ON "Category"("slug");

-- CreateIndex
CREATE INDEX "Category_parentId_idx" ON "Category"("parentId");

-- CreateIndex
CREATE UNIQUE INDEX "Product_slug_key" ON "Product"("slug");

-- CreateIndex
CREATE INDEX "Product_categoryId_idx" ON "Product"("categoryId");

-- CreateIndex
CREATE UNIQUE INDEX "Product_upstreamConnectionId_upstreamProductId_key" ON "Product"("upstreamConnectionId", "upstreamProductId");

-- CreateIndex
CREATE UNIQUE INDEX "Sku_skuCode_key" ON "Sku"("skuCode");

-- CreateIndex
CREATE INDEX "Sku_productId_idx" ON "Sku"("productId");

-- CreateIndex
CREATE INDEX "CardKey_skuId_status_id_idx" ON "CardKey"("skuId", "status", "id");

-- CreateIndex
CREATE INDEX "CardKey_orderId_idx" ON "CardKey"("orderId");

-- CreateIndex
CREATE UNIQUE INDEX "CardKey_skuId_fingerprint_key" ON "CardKey"("skuId", "fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "ApiCredential_apiKey_key" ON "ApiCredential"("apiKey");

-- CreateIndex
CREATE INDEX "ReplayRecord_expiresAt_idx" ON "ReplayRecord"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Order_orderNo_key" ON "Order"("orderNo");

-- CreateIndex
CREATE INDEX "Order_status_createdAt_idx" ON "Order"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Order_createdAt_idx" ON "Order"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Order_credentialId_downstreamOrderNo_key" ON "Order"("credentialId", "downstreamOrderNo");

-- CreateIndex
CREATE INDEX "OrderItem_orderId_idx" ON "OrderItem"("orderId");

-- CreateIndex
CREATE UNIQUE INDEX "Fulfillment_orderId_key" ON "Fulfillment"("orderId");

-- CreateIndex
CREATE INDEX "Callback_status_idx" ON "Callback"("status");

-- CreateIndex
CREATE INDEX "Callback_orderId_idx" ON "Callback"("orderId");

-- CreateIndex
CREATE INDEX "CallbackAttempt_callbackId_idx" ON "CallbackAttempt"("callbackId");

-- CreateIndex
CREATE UNIQUE INDEX "UpstreamPurchase_orderId_key" ON "UpstreamPurchase"("orderId");

-- CreateIndex
CREATE UNIQUE INDEX "AdminUser_email_key" ON "AdminUser"("email");

-- CreateIndex
CREATE INDEX "AuditLog_createdAt_idx" ON "AuditLog"("createdAt");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_memberLevelId_fkey" FOREIGN KEY ("memberLevelId") REFERENCES "MemberLevel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PointsLedger" ADD CONSTRAINT "PointsLedger_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PointsLedger" ADD CONSTRAINT "PointsLedger_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Category" ADD CONSTRAINT "Category_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Category"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "Category"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_upstreamConnectionId_fkey" FOREIGN KEY ("upstreamConnectionId") REFERENCES "UpstreamConnection"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardKeyBatch" ADD CONSTRAINT "CardKeyBatch_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardKey" ADD CONSTRAINT "CardKey_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardKey" ADD CONSTRAINT "CardKey_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardKey" ADD CONSTRAINT "CardKey_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "CardKeyBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiCredential" ADD CONSTRAINT "ApiCredential_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "ApiCredential"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fulfillment" ADD CONSTRAINT "Fulfillment_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Callback" ADD CONSTRAINT "Callback_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CallbackAttempt" ADD CONSTRAINT "CallbackAttempt_callbackId_fkey" FOREIGN KEY ("callbackId") REFERENCES "Callback"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UpstreamPurchase" ADD CONSTRAINT "UpstreamPurchase_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UpstreamPurchase" ADD CONSTRAINT "UpstreamPurchase_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "UpstreamConnection"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_adminUserId_fkey" FOREIGN KEY ("adminUserId") REFERENCES "AdminUser"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ---- Hand-written: invariants Prisma's schema language cannot express ----

-- A balance never goes negative, whatever the application does.
ALTER TABLE "User" ADD CONSTRAINT "User_balance_non_negative" CHECK ("balanceCents" >= 0);
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_stock_non_negative" CHECK ("stockQuantity" IS NULL OR "stockQuantity" >= 0);

-- The points ledger is append-only.
CREATE FUNCTION points_ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'PointsLedger rows are immutable';
END $$;
CREATE TRIGGER "PointsLedger_immutable" BEFORE UPDATE OR DELETE ON "PointsLedger"
  FOR EACH ROW EXECUTE FUNCTION points_ledger_immutable();

-- Picking undelivered keys: a small partial index instead of scanning delivered ones.
CREATE INDEX "CardKey_available_pick" ON "CardKey" ("skuId", "id") WHERE "status" = 'available';

-- Every user has a member level (D16); the instance id is made once (D4).
INSERT INTO "MemberLevel" ("slug", "name", "isDefault", "sortOrder")
  VALUES ('default', '{"zh-CN": "普通会员", "en": "Member"}', true, 0);
INSERT INTO "SiteSettings" ("id", "instanceId", "updatedAt") VALUES (1, gen_random_uuid(), now());
