-- Which provider key served a generation, and how many upstream requests it took (failover).
ALTER TABLE "UsageRecord" ADD COLUMN "providerKey" TEXT;
ALTER TABLE "UsageRecord" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
