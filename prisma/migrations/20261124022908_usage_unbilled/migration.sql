-- AlterTable
ALTER TABLE "UsageRecord" ADD COLUMN     "unbilledMicros" BIGINT NOT NULL DEFAULT 0;
