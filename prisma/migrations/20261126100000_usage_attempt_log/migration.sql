-- AlterTable: the attempts of a request that failed over, for its record in the console's Activity.
ALTER TABLE "UsageRecord" ADD COLUMN "attemptLog" JSONB;
