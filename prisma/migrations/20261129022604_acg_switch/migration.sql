-- Issue 37.2 (decision 0091): a key speaks ACG-Faka's shared-store protocol only once an operator switches it on.
ALTER TABLE "ApiCredential" ADD COLUMN "acgEnabled" BOOLEAN NOT NULL DEFAULT false;
