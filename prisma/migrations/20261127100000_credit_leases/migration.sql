-- Credit leases (server/ledger/credit-leases.ts): a process holds part of a busy account's balance and admits
-- that account's requests against it without locking the account's row; Account.reservedMicros counts the
-- lease's amount. A reservation drawn from a lease names it; windowHeld says whether its amount was added to
-- the key's and the member's spend windows at admission (false: settlement adds the cost alone).
CREATE TABLE "CreditLease" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "amountMicros" BIGINT NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "releasedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CreditLease_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "CreditLease_releasedAt_expiresAt_idx" ON "CreditLease"("releasedAt", "expiresAt");
CREATE INDEX "CreditLease_accountId_idx" ON "CreditLease"("accountId");
ALTER TABLE "CreditLease" ADD CONSTRAINT "CreditLease_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Reservation" ADD COLUMN "leaseId" TEXT;
ALTER TABLE "Reservation" ADD COLUMN "windowHeld" BOOLEAN NOT NULL DEFAULT true;
