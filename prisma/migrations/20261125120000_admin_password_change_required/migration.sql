-- Issue 22.8: the password start generated for the first administrator is
-- printed to the terminal (and so to logs that capture it); the console
-- shows only the password page until that administrator chooses their own.
ALTER TABLE "AdminUser" ADD COLUMN "passwordChangeRequired" BOOLEAN NOT NULL DEFAULT false;
