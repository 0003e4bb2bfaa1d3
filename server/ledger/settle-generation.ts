// Settle a generation: in ONE transaction release its reservation, charge the actual cost (promotional
// credit first, in order of expiry), update the key's and the member's spend and write the usage record. Because the usage
// record, the ledger entry and the reservation change commit together, a generation is charged and
// recorded exactly once (a second settle finds the reservation no longer ACTIVE and does nothing). A
// settlement that arrives after the sweeper gave the generation up (EXPIRED) is still charged, once: see
// settleLate; so is one whose reservation a database crash lost (settleLost).
import { db } from '@/server/db';
import { postLedgerEntry, type Tx } from './post-ledger-entry';
import { newRowId } from './reserve';
import { storableText, storableTextOrNull } from './storable-text';

export interface UsageFields {
  userId?: string | null;
  apiKeyId?: string | null;
  authTokenId?: string | null;
  model: string;
  provider: string;
  upstreamModel?: string;
  upstreamId?: string | null;
  /** The provider key that served (its id in the routing configuration). */
  providerKey?: string | null;
  /** Upstream requests made, the serving one included (more than 1: it failed over). */
  attempts?: number;
  /** Each attempt when it failed over (gateway/open-route.ts attemptLog), else null. */
  attemptLog?: { provider: string; model: string; status: number | null }[] | null;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  cacheSavingsMicros?: bigint;
  /** The operator's loss on this generation (see gateway/outcome.ts chargeFor). */
  unbilledMicros?: bigint;
  /** Served with the account's own provider key (BYOK). */
  byok?: boolean;
  /** What the provider itself reported the generation cost (OpenRouter's usage.cost); null when it did not say. */
  providerCostMicros?: bigint | null;
  latencyMs: number;
  ttftMs?: number | null;
  finishReason?: string | null;
  /**
   * REFUSED: refused at admission after its reservation was made (gateway/handle-chat.ts), settled at no charge
   * so its record reads as the refusals recorded without one (refusal-records.ts).
   */
  status: 'SUCCESS' | 'ERROR' | 'ABORTED' | 'REFUSED';
  streamed: boolean;
  /** The HTTP status the client got (200 once an answer or a stream started; 499 when it left first). */
  httpStatus?: number | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  httpReferer?: string | null;
  xTitle?: string | null;
  taskId?: string | null;
  requestId?: string | null;
}

export interface SettleInput {
  generationId: string;
  accountId: string;
  costMicros: bigint;
  usage: UsageFields;
  /** Status of the reservation when it is closed (SETTLED normally, EXPIRED by the sweeper). */
  closeAs?: 'SETTLED' | 'EXPIRED';
}

export interface SettleResult {
  settled: boolean;
  costMicros: bigint;
}

/** Storable (no NUL, storable-text.ts) and bounded to the column's sensible size; absent → null (an update must clear what the sweeper wrote). */
const clip = storableTextOrNull;

export async function settleGeneration(input: SettleInput): Promise<SettleResult> {
  const prisma = await db();
  return prisma.$transaction((tx) => settleInTx(tx, input));
}

export async function settleInTx(tx: Tx, input: SettleInput): Promise<SettleResult> {
  const closed = await tx.$queryRaw<ClosedReservation[]>`
    UPDATE "Reservation" SET status = ${input.closeAs ?? 'SETTLED'}::"ReservationStatus", "settledMicros" = ${input.costMicros}, "settledAt" = now()
    WHERE "generationId" = ${input.generationId} AND status = 'ACTIVE'::"ReservationStatus"
    RETURNING "amountMicros", "apiKeyId", "membershipId", "leaseId", "windowHeld"`;
  if (closed.length === 0) return input.closeAs === 'EXPIRED' ? { settled: false, costMicros: 0n } : settleLate(tx, input);
  const cost = input.costMicros < 0n ? 0n : input.costMicros;
  await releaseHold(tx, input.accountId, closed[0], cost);
  await charge(tx, input, cost);
  await tx.usageRecord.create({ data: await usageRecordData(tx, input, cost) });
  return { settled: true, costMicros: cost };
}

/** A reservation just closed (status changed from ACTIVE), as its UPDATE … RETURNING gives it. */
export interface ClosedReservation {
  amountMicros: bigint;
  apiKeyId: string | null;
  membershipId: string | null;
  leaseId: string | null;
  windowHeld: boolean;
}

/**
 * Gives a closed reservation's hold back and puts `cost` in the key's and the member's windows instead (the
 * settlement batch does the same in SQL, settle-batch.ts). Lock order as everywhere: CreditLease, Account,
 * ApiKey, Membership. A hold drawn from a credit lease goes back to the lease and leaves reservedMicros with it,
 * unless the lease was released meanwhile (its whole amount already left reservedMicros).
 */
export async function releaseHold(tx: Tx, accountId: string, r: ClosedReservation, cost: bigint): Promise<void> {
  let release = r.amountMicros;
  if (r.leaseId) {
    const live = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "CreditLease" WHERE id = ${r.leaseId} AND "releasedAt" IS NULL FOR NO KEY UPDATE`;
    if (live.length) await tx.$executeRaw`UPDATE "CreditLease" SET "amountMicros" = GREATEST(0, "amountMicros" - ${r.amountMicros}) WHERE id = ${r.leaseId}`;
    else release = 0n;
  }
  await tx.$executeRaw`UPDATE "Account" SET "reservedMicros" = "reservedMicros" - ${release} WHERE id = ${accountId}`;
  // The window held the reservation (windowHeld): replace it by the actual cost; else add the cost.
  const held = r.windowHeld ? r.amountMicros : 0n;
  if (r.apiKeyId) {
    await tx.$executeRaw`
      UPDATE "ApiKey" SET "windowSpentMicros" = GREATEST(0, "windowSpentMicros" - ${held} + ${cost}),
                          "totalSpentMicros" = "totalSpentMicros" + ${cost},
                          "lastUsedAt" = CASE WHEN ${!r.windowHeld} THEN now() ELSE "lastUsedAt" END
      WHERE id = ${r.apiKeyId}`;
  }
  if (r.membershipId) {
    await tx.$executeRaw`UPDATE "Membership" SET "windowSpentMicros" = GREATEST(0, "windowSpentMicros" - ${held} + ${cost}) WHERE id = ${r.membershipId}`;
  }
}

/**
 * The sweeper closes a reservation whose TTL passed as EXPIRED, taking its process for dead, and records
 * the generation as interrupted at no charge. If the process was alive after all (a stream longer than
 * the TTL, a stalled flush) its settlement arrives late: it is still charged and recorded, once. The
 * EXPIRED → SETTLED transition happens at most once; the hold was already released by the sweeper.
 */
async function settleLate(tx: Tx, input: SettleInput): Promise<SettleResult> {
  const cost = input.costMicros < 0n ? 0n : input.costMicros;
  const late = await tx.$queryRaw<{ apiKeyId: string | null; membershipId: string | null }[]>`
    UPDATE "Reservation" SET status = 'SETTLED'::"ReservationStatus", "settledMicros" = ${cost}, "settledAt" = now()
    WHERE "generationId" = ${input.generationId} AND "accountId" = ${input.accountId} AND status = 'EXPIRED'::"ReservationStatus"
    RETURNING "apiKeyId", "membershipId"`;
  if (late.length === 0) return settleLost(tx, input, cost);
  // Lock order as everywhere else (settleInTx, the settlement batch, the reservation statement): Account,
  // then ApiKey. Updating the key first let a reservation holding the account wait for the key while this
  // waited for the account (a deadlock the ledger property test found on PostgreSQL).
  await tx.$executeRaw`SELECT 1 FROM "Account" WHERE id = ${input.accountId} FOR NO KEY UPDATE`;
  if (late[0].apiKeyId) {
    await tx.$executeRaw`
      UPDATE "ApiKey" SET "windowSpentMicros" = "windowSpentMicros" + ${cost}, "totalSpentMicros" = "totalSpentMicros" + ${cost}
      WHERE id = ${late[0].apiKeyId}`;
  }
  if (late[0].membershipId) {
    await tx.$executeRaw`UPDATE "Membership" SET "windowSpentMicros" = "windowSpentMicros" + ${cost} WHERE id = ${late[0].membershipId}`;
  }
  await charge(tx, input, cost);
  const data = await usageRecordData(tx, input, cost);
  const { id: _id, ...update } = data;
  await tx.usageRecord.upsert({ where: { id: input.generationId }, create: data, update });
  return { settled: true, costMicros: cost };
}

/**
 * No reservation at all for the generation (neither ACTIVE, EXPIRED, SETTLED nor RELEASED: no row). On
 * PostgreSQL the admission statement commits without waiting for the WAL to reach the disk
 * (ADMISSION_ASYNC_COMMIT, db/client.ts): if the database server crashed within a fraction of a second after
 * it, the reservation and its hold were lost together (atomically: the account's reservedMicros and the
 * windows agree with it). The generation was served, so it is charged and recorded as any other, once: the
 * SETTLED row written here is what a second settlement of it finds. Nothing to release; the cost goes into
 * the key's window. The member's window (which the lost row named) is not known here and is left alone.
 */
async function settleLost(tx: Tx, input: SettleInput, cost: bigint): Promise<SettleResult> {
  const u = input.usage;
  const inserted = await tx.$queryRaw<{ apiKeyId: string | null }[]>`
    INSERT INTO "Reservation" (id, "accountId", "apiKeyId", "generationId", "userId", "authTokenId", model, provider,
                               "amountMicros", status, "expiresAt", "settledMicros", "settledAt", "windowHeld")
    SELECT ${newRowId()}, a.id, (SELECT k.id FROM "ApiKey" k WHERE k.id = ${u.apiKeyId ?? null}), ${input.generationId},
           ${u.userId ?? null}, ${u.authTokenId ?? null}, ${u.model}, ${u.provider}, ${cost}, 'SETTLED'::"ReservationStatus", now(), ${cost}, now(), false
    FROM "Account" a WHERE a.id = ${input.accountId}
      AND NOT EXISTS (SELECT 1 FROM "UsageRecord" u WHERE u.id = ${input.generationId}) -- recorded already: never charged twice
    ON CONFLICT ("generationId") DO NOTHING
    RETURNING "apiKeyId"`;
  if (inserted.length === 0) return { settled: false, costMicros: 0n }; // settled already, or the account is gone
  await releaseHold(tx, input.accountId, { amountMicros: 0n, apiKeyId: inserted[0].apiKeyId, membershipId: null, leaseId: null, windowHeld: false }, cost);
  await charge(tx, input, cost);
  await tx.usageRecord.create({ data: await usageRecordData(tx, input, cost) });
  return { settled: true, costMicros: cost };
}

async function charge(tx: Tx, input: SettleInput, cost: bigint): Promise<void> {
  if (cost <= 0n) return;
  const promoPart = await drawPromotionalCredit(tx, input.accountId, cost);
  await postLedgerEntry(tx, {
    accountId: input.accountId,
    kind: 'USAGE',
    paidMicros: -(cost - promoPart),
    promoMicros: -promoPart,
    idempotencyKey: `usage:${input.generationId}`,
    generationId: input.generationId,
  });
}

async function usageRecordData(tx: Tx, input: SettleInput, cost: bigint) {
  const data = usageRecordFields(input, cost);
  // The user, key and token the record names may have been deleted while the generation ran: usage records
  // carry no foreign keys (migration 20261128103031_hot_path_references), so drop what no longer exists.
  // One query for the three (this runs per generation for accounts with promotional credit).
  if (data.userId || data.apiKeyId || data.authTokenId) {
    const [live] = await tx.$queryRaw<{ u: string | null; k: string | null; t: string | null }[]>`
      SELECT (SELECT id FROM "User" WHERE id = ${data.userId}) AS u, (SELECT id FROM "ApiKey" WHERE id = ${data.apiKeyId}) AS k,
             (SELECT id FROM "AuthToken" WHERE id = ${data.authTokenId}) AS t`;
    data.userId = live?.u ?? null;
    data.apiKeyId = live?.k ?? null;
    data.authTokenId = live?.t ?? null;
  }
  return data;
}

/**
 * The usage record of a settled generation, every text column storable and clipped to its size (also the batch
 * path's input). An upstream's error message or response id may hold a NUL (one quoting the client's text back)
 * or a lone surrogate: unstored, the batch statement failed (jsonb) and then the item's own transaction, retried
 * for ever with its reservation held.
 */
export function usageRecordFields(input: SettleInput, cost: bigint) {
  const u = input.usage;
  return {
    id: input.generationId,
    accountId: input.accountId,
    userId: u.userId ?? null,
    apiKeyId: u.apiKeyId ?? null,
    authTokenId: u.authTokenId ?? null,
    model: storableText(u.model, 200),
    provider: storableText(u.provider, 100),
    upstreamModel: storableText(u.upstreamModel ?? '', 200),
    upstreamId: clip(u.upstreamId, 200),
    providerKey: clip(u.providerKey, 100),
    attempts: u.attempts ?? 0,
    // undefined, not null: Prisma writes SQL NULL to a Json? column only as Prisma.DbNull (the batch path's JSON drops it).
    attemptLog: u.attemptLog ?? undefined,
    promptTokens: u.promptTokens,
    completionTokens: u.completionTokens,
    cachedTokens: u.cachedTokens,
    cacheWriteTokens: u.cacheWriteTokens,
    reasoningTokens: u.reasoningTokens,
    costMicros: cost,
    cacheSavingsMicros: u.cacheSavingsMicros ?? 0n,
    unbilledMicros: u.unbilledMicros ?? 0n,
    byok: u.byok ?? false,
    providerCostMicros: u.providerCostMicros ?? null,
    latencyMs: u.latencyMs,
    ttftMs: u.ttftMs ?? null,
    finishReason: clip(u.finishReason, 100),
    status: u.status,
    streamed: u.streamed,
    httpStatus: u.httpStatus ?? null,
    errorCode: clip(u.errorCode, 100),
    errorMessage: clip(u.errorMessage, 1000),
    httpReferer: clip(u.httpReferer, 500),
    xTitle: clip(u.xTitle, 200),
    taskId: clip(u.taskId, 200),
    requestId: clip(u.requestId, 100),
  };
}

/** Takes up to `cost` from unexpired promotion grants (earliest expiry first); returns what was taken. */
async function drawPromotionalCredit(tx: Tx, accountId: string, cost: bigint): Promise<bigint> {
  const [acct] = await tx.$queryRaw<{ promoMicros: bigint }[]>`SELECT "promoMicros" FROM "Account" WHERE id = ${accountId} FOR NO KEY UPDATE`;
  if (!acct || acct.promoMicros <= 0n) return 0n;
  let remaining = cost < acct.promoMicros ? cost : acct.promoMicros;
  const taken = remaining;
  const grants = await tx.$queryRaw<{ id: string; remainingMicros: bigint }[]>`
    SELECT id, "remainingMicros" FROM "PromotionGrant"
    WHERE "accountId" = ${accountId} AND "remainingMicros" > 0 AND "expiredAt" IS NULL
    ORDER BY "expiresAt" ASC NULLS LAST, "createdAt" ASC FOR NO KEY UPDATE`;
  for (const g of grants) {
    if (remaining <= 0n) break;
    const take = g.remainingMicros < remaining ? g.remainingMicros : remaining;
    await tx.$executeRaw`UPDATE "PromotionGrant" SET "remainingMicros" = "remainingMicros" - ${take} WHERE id = ${g.id}`;
    remaining -= take;
  }
  // Grants and the cached bucket agree by construction; if they ever did not, charge the bucket anyway.
  return taken;
}
