-- The revision of what admission decides with (server/gateway/admission-revision.ts). A process sends a warm
-- API key's provider request before that key's admission statement has answered (early dispatch,
-- server/gateway/early-dispatch.ts); every process polls this one row and forgets its warm keys when it moves,
-- so a change made anywhere stops early dispatch everywhere within about a second.
--
-- It is bumped by the triggers below, in the transaction that makes the change, on exactly the changes that can
-- turn an admitted key's next request into a refusal or send it to another provider or with another key. The
-- chat path's own writes never fire them: the admission statement writes "ApiKey"."windowSpentMicros",
-- "windowStartedAt" and "lastUsedAt", "Membership"."windowSpentMicros" and "windowStartedAt" and
-- "Account"."reservedMicros"; settlement adds "totalSpentMicros" and the account's balance. Each UPDATE trigger
-- names its columns (UPDATE OF) and compares them (WHEN), so a write that leaves them as they were does not
-- count either. Key creation and a new provider key's first admission need nothing: a key is warm only after an
-- admission that already saw its state.

-- CreateTable
CREATE TABLE "AdmissionRevision" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "revision" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "AdmissionRevision_pkey" PRIMARY KEY ("id")
);

-- The one row, so every change bumps it with an UPDATE (no first-insert race between writers).
INSERT INTO "AdmissionRevision" ("id", "revision") VALUES (1, 0);

CREATE FUNCTION "AdmissionRevision_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "AdmissionRevision" SET "revision" = "revision" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

-- API keys: disabled, deleted (soft or hard), rotated (new hash, the previous secret's grace), expiry, allowed
-- models, spend limit and its window's period, rate limits, or moved to another account or user.
CREATE TRIGGER "ApiKey_admission_revision" AFTER UPDATE OF "keyHash", "previousKeyHash", "previousKeyExpiresAt", "deletedAt", "disabledAt", "expiresAt", "allowedModels", "creditLimitMicros", "limitReset", "rateLimitRpm", "rateLimitTpm", "accountId", "userId" ON "ApiKey"
  FOR EACH ROW
  WHEN (OLD."keyHash" IS DISTINCT FROM NEW."keyHash"
     OR OLD."previousKeyHash" IS DISTINCT FROM NEW."previousKeyHash"
     OR OLD."previousKeyExpiresAt" IS DISTINCT FROM NEW."previousKeyExpiresAt"
     OR OLD."deletedAt" IS DISTINCT FROM NEW."deletedAt"
     OR OLD."disabledAt" IS DISTINCT FROM NEW."disabledAt"
     OR OLD."expiresAt" IS DISTINCT FROM NEW."expiresAt"
     OR OLD."allowedModels" IS DISTINCT FROM NEW."allowedModels"
     OR OLD."creditLimitMicros" IS DISTINCT FROM NEW."creditLimitMicros"
     OR OLD."limitReset" IS DISTINCT FROM NEW."limitReset"
     OR OLD."rateLimitRpm" IS DISTINCT FROM NEW."rateLimitRpm"
     OR OLD."rateLimitTpm" IS DISTINCT FROM NEW."rateLimitTpm"
     OR OLD."accountId" IS DISTINCT FROM NEW."accountId"
     OR OLD."userId" IS DISTINCT FROM NEW."userId")
  EXECUTE FUNCTION "AdmissionRevision_bump"();
CREATE TRIGGER "ApiKey_delete_admission_revision" AFTER DELETE ON "ApiKey"
  FOR EACH ROW EXECUTE FUNCTION "AdmissionRevision_bump"();

-- Users: suspended (every key and token of the user is refused), or deleted (their keys go with them, above).
CREATE TRIGGER "User_admission_revision" AFTER UPDATE OF "suspendedAt" ON "User"
  FOR EACH ROW WHEN (OLD."suspendedAt" IS DISTINCT FROM NEW."suspendedAt")
  EXECUTE FUNCTION "AdmissionRevision_bump"();

-- Organizations: the policy in their settings (other settings, such as alert thresholds, do not count).
CREATE TRIGGER "Organization_admission_revision" AFTER UPDATE OF "settings" ON "Organization"
  FOR EACH ROW
  WHEN (OLD."settings" -> 'allowed_models' IS DISTINCT FROM NEW."settings" -> 'allowed_models'
     OR OLD."settings" -> 'allowed_providers' IS DISTINCT FROM NEW."settings" -> 'allowed_providers')
  EXECUTE FUNCTION "AdmissionRevision_bump"();

-- Accounts: how far below zero the balance may go.
CREATE TRIGGER "Account_admission_revision" AFTER UPDATE OF "creditFloorMicros" ON "Account"
  FOR EACH ROW WHEN (OLD."creditFloorMicros" IS DISTINCT FROM NEW."creditFloorMicros")
  EXECUTE FUNCTION "AdmissionRevision_bump"();

-- Provider keys (BYOK): any key saved, replaced or removed changes whose key a request is sent with.
CREATE TRIGGER "ProviderKey_admission_revision" AFTER INSERT OR UPDATE OR DELETE ON "ProviderKey"
  FOR EACH ROW EXECUTE FUNCTION "AdmissionRevision_bump"();

-- Memberships: joined, left or removed, a role or a member's spend limit and its period changed.
CREATE TRIGGER "Membership_admission_revision" AFTER UPDATE OF "role", "spendLimitMicros", "limitReset", "organizationId", "userId" ON "Membership"
  FOR EACH ROW
  WHEN (OLD."role" IS DISTINCT FROM NEW."role"
     OR OLD."spendLimitMicros" IS DISTINCT FROM NEW."spendLimitMicros"
     OR OLD."limitReset" IS DISTINCT FROM NEW."limitReset"
     OR OLD."organizationId" IS DISTINCT FROM NEW."organizationId"
     OR OLD."userId" IS DISTINCT FROM NEW."userId")
  EXECUTE FUNCTION "AdmissionRevision_bump"();
CREATE TRIGGER "Membership_insert_delete_admission_revision" AFTER INSERT OR DELETE ON "Membership"
  FOR EACH ROW EXECUTE FUNCTION "AdmissionRevision_bump"();
