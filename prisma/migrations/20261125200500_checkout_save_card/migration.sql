-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "returnPath" TEXT,
ADD COLUMN     "saveCard" BOOLEAN NOT NULL DEFAULT false;
