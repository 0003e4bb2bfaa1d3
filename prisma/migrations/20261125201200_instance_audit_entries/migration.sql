-- AlterTable: instance-wide audit entries (the operators' catalog writes) belong to no account.
ALTER TABLE "AuditLogEntry" ALTER COLUMN "accountId" DROP NOT NULL;
