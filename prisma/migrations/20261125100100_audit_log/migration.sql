-- CreateTable
CREATE TABLE "AuditLogEntry" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "actorUserId" TEXT,
    "actorKind" TEXT NOT NULL,
    "actorLabel" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT,
    "before" JSONB,
    "after" JSONB,
    "via" TEXT NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLogEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditLogEntry_accountId_createdAt_id_idx" ON "AuditLogEntry"("accountId", "createdAt", "id");

-- Append-only: an entry is never changed (deleting old entries for retention stays possible).
CREATE FUNCTION "AuditLogEntry_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END $$;
CREATE TRIGGER "AuditLogEntry_append_only" BEFORE UPDATE ON "AuditLogEntry" FOR EACH ROW EXECUTE FUNCTION "AuditLogEntry_refuse_update"();
