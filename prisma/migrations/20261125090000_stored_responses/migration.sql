-- CreateTable
CREATE TABLE "StoredResponse" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "model" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "output" JSONB NOT NULL,
    "response" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StoredResponse_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StoredResponse_expiresAt_idx" ON "StoredResponse"("expiresAt");

-- AddForeignKey
ALTER TABLE "StoredResponse" ADD CONSTRAINT "StoredResponse_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
