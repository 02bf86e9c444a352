-- Issue 27.1: uploaded pictures live in the database, so every app instance
-- serves them (decision 0044). `name` is the last segment of the public path
-- /uploads/<name>: "<sha256>.<ext>" for pictures uploaded from now on (the
-- URL names the content), the old random file name for files moved in from
-- DATA_DIR/uploads (stored URLs keep working). Rows are never changed.
CREATE TABLE "Upload" (
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Upload_pkey" PRIMARY KEY ("name"),
    CONSTRAINT "Upload_name_check" CHECK ("name" ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$' AND position('..' in "name") = 0),
    CONSTRAINT "Upload_contentType_check" CHECK ("contentType" IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')),
    CONSTRAINT "Upload_size_check" CHECK ("size" = octet_length("content") AND "size" > 0),
    CONSTRAINT "Upload_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$')
);
