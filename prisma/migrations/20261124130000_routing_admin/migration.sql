-- CreateEnum
CREATE TYPE "RoutingEntryKind" AS ENUM ('MODEL', 'PROVIDER');

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "isOperator" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "RoutingEntry" (
    "kind" "RoutingEntryKind" NOT NULL,
    "id" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RoutingEntry_pkey" PRIMARY KEY ("kind","id")
);

-- CreateTable
CREATE TABLE "RoutingRevision" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "revision" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RoutingRevision_pkey" PRIMARY KEY ("id")
);

-- The one revision row, so every write bumps it with an UPDATE (no first-insert race between instances).
INSERT INTO "RoutingRevision" ("id", "revision") VALUES (1, 0);
