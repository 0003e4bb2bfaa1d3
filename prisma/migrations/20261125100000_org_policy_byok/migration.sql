-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "rateLimitRpm" INTEGER,
ADD COLUMN     "rateLimitTpm" INTEGER;

-- AlterTable
ALTER TABLE "Membership" ADD COLUMN     "limitReset" "LimitReset" NOT NULL DEFAULT 'NEVER',
ADD COLUMN     "spendLimitMicros" BIGINT,
ADD COLUMN     "windowSpentMicros" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "windowStartedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "Reservation" ADD COLUMN     "membershipId" TEXT;

-- AlterTable
ALTER TABLE "UsageRecord" ADD COLUMN     "byok" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "providerCostMicros" BIGINT;

-- CreateTable
CREATE TABLE "ProviderKey" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "encryptedKey" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProviderKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ProviderKey_accountId_provider_key" ON "ProviderKey"("accountId", "provider");

-- AddForeignKey
ALTER TABLE "ProviderKey" ADD CONSTRAINT "ProviderKey_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
