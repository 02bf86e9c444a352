-- CreateTable
CREATE TABLE "CatalogWebhook" (
    "id" SERIAL NOT NULL,
    "credentialId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "cursor" TIMESTAMP(6) NOT NULL,
    "lastEventAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CatalogWebhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CatalogEvent" (
    "id" SERIAL NOT NULL,
    "credentialId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "productCount" INTEGER NOT NULL,
    "status" "CallbackStatus" NOT NULL DEFAULT 'pending',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CatalogEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CatalogEventAttempt" (
    "id" SERIAL NOT NULL,
    "eventId" INTEGER NOT NULL,
    "httpStatus" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CatalogEventAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CatalogWebhook_credentialId_key" ON "CatalogWebhook"("credentialId");

-- CreateIndex
CREATE INDEX "CatalogEvent_status_idx" ON "CatalogEvent"("status");

-- CreateIndex
CREATE INDEX "CatalogEvent_credentialId_idx" ON "CatalogEvent"("credentialId");

-- CreateIndex
CREATE INDEX "CatalogEventAttempt_eventId_idx" ON "CatalogEventAttempt"("eventId");

-- AddForeignKey
ALTER TABLE "CatalogWebhook" ADD CONSTRAINT "CatalogWebhook_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "ApiCredential"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CatalogEvent" ADD CONSTRAINT "CatalogEvent_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "ApiCredential"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CatalogEventAttempt" ADD CONSTRAINT "CatalogEventAttempt_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "CatalogEvent"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
