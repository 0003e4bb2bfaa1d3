-- Requests refused at admission are recorded (activity log) with the HTTP status the client got.
ALTER TYPE "UsageStatus" ADD VALUE 'REFUSED';
ALTER TABLE "UsageRecord" ADD COLUMN "httpStatus" INTEGER;
