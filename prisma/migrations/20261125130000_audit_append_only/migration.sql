-- Issue 22.10: the audit trail is append-only, as the points ledger is. Rows
-- are only ever inserted, in the transaction of the change they record;
-- backup restore empties the table with TRUNCATE (no row trigger fires) after
-- disabling our triggers for the load.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'AuditLog rows are append-only';
END $$;
CREATE TRIGGER "AuditLog_append_only" BEFORE UPDATE OR DELETE ON "AuditLog"
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- The one-time tokens of the console's money forms (points adjustment,
-- manual delivery, fail and refund): a token is inserted in the transaction
-- of the change it carries, so the same submission twice changes money once.
CREATE TABLE "OnceToken" (
    "token" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OnceToken_pkey" PRIMARY KEY ("token")
);
