// Reserve, then settle. Before a provider is called, the worst-case cost is held against the account (and
// the key's spend window) atomically. The rules live once, in RESERVE_SQL (reserve-sql.ts), for every caller: an
// authenticated principal (reserveCredits), an API key known only by its hash (reserve-for-api-key.ts: the
// key is authenticated in the same statement) and a group of API-key admissions at once
// (key-admission-batcher.ts). Whatever the caller, an admission costs ONE statement (one round trip, the
// account's row lock held only while it runs, autocommit).
import { randomFillSync } from 'node:crypto';
import { database } from '@/server/db';
import { AppError } from '@/server/errors';
import { refuseByPolicy, refuseDisabledKey, refuseReservation } from './reservation-refusals';
import { RESERVE_SQL } from './reserve-sql';
import { withDeadlockRetry } from './deadlock-retry';

export type LimitReset = 'NEVER' | 'DAILY' | 'WEEKLY' | 'MONTHLY';

/** Start of the key's current spend window (UTC). NEVER: the epoch, so the window never rolls over. */
export function currentWindowStart(reset: LimitReset, now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  switch (reset) {
    case 'DAILY':
      return d;
    case 'WEEKLY': {
      const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
      return new Date(d.getTime() - dow * 86_400_000);
    }
    case 'MONTHLY':
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    default:
      return new Date(0);
  }
}

const idPool = Buffer.allocUnsafe(4096);
let idPoolAt = idPool.length;

/** A new row id in the shape of Prisma's cuid(): "c", the time in base 36, 64 random bits. */
export function newRowId(): string {
  if (idPoolAt + 8 > idPool.length) {
    randomFillSync(idPool);
    idPoolAt = 0;
  }
  idPoolAt += 8;
  return 'c' + Date.now().toString(36) + idPool.toString('hex', idPoolAt - 8, idPoolAt);
}

// Timestamps go to SQL as UTC ISO strings cast to timestamp(3): the columns hold UTC wall time (Prisma's
// convention), and a timestamp without time zone ignores the "Z", whatever the process's time zone.
export const ts = (d: Date) => d.toISOString();

const DEFAULT_TTL_MS = 15 * 60_000;

/** One request for credit. Give `keyHash` (an API key to authenticate), or `accountId` with an optional `keyId`. */
export interface ReservationRequest {
  /** SHA-256 hash of a well-formed API key (hashSecret): the key is authenticated by this statement. */
  keyHash?: string;
  /** The API key of a principal authenticated before (its checks and spend window still apply). */
  keyId?: string;
  /** The account to hold credit on; with keyHash, the key's. */
  accountId?: string;
  /** Recorded on the reservation; with keyHash, the key's owner. */
  userId?: string;
  authTokenId?: string;
  /** The catalog model id, checked against the key's allowed models and recorded on the reservation. */
  model: string;
  /** The model's other names: a key allowed one of them may use it (keys made before a model was renamed). */
  modelAliases?: readonly string[];
  provider: string;
  generationId: string;
  /** The worst case at list price (the largest of the candidates' amounts when `candidates` are given). */
  amountMicros: bigint;
  /**
   * The endpoints that may serve, with what each may cost at list price and with the account's own key
   * (BYOK fee): the statement reserves the largest over those the organization's policy allows, at the BYOK
   * amount where the account has a key for the provider. Absent: `provider` alone, at `amountMicros`.
   */
  candidates?: readonly ReservationCandidate[];
  /** How long before the sweeper may settle it if this process dies (default 15 min). */
  ttlMs?: number;
  /** This process's credit lease on the account that covers the request (credit-leases.ts), if any. */
  leaseId?: string;
}

export interface ReservationCandidate {
  provider: string;
  amountMicros: bigint;
  byokAmountMicros: bigint;
}

/** What the statement decided for one request. */
export interface ReservationRow {
  /** The API key's id; null when none was given or none was found. */
  id: string | null;
  keyHash: string | null;
  userId: string;
  accountId: string;
  deleted: boolean;
  expired: boolean;
  disabled: boolean;
  /** The key's (or principal's) user is suspended by an operator. */
  suspended: boolean;
  limitReset: LimitReset;
  allowedModels: string[] | null;
  hasCreditLimit: boolean;
  modelAllowed: boolean;
  /** The key's own rate limits (null: the server's default / none). */
  rateLimitRpm: number | null;
  rateLimitTpm: number | null;
  /** The paying organization allows the model (true for personal accounts and organizations without a list). */
  orgModelAllowed: boolean;
  orgAllowedModels: string[] | null;
  /** The organization's provider allow-list (null: every provider). */
  allowedProviders: string[] | null;
  /** At least one candidate's provider is allowed. */
  providerAllowed: boolean;
  /** The account's own keys (encrypted) for the candidates' providers, by provider id; null: none. */
  byokKeys: Record<string, string> | null;
  /** The account has no model or provider policy and no provider keys at all (early dispatch may skip them). */
  plain: boolean;
  /** The membership whose spend window holds the reservation (a member acting for its organization). */
  membershipId: string | null;
  /** The amount reserved (or that would have been): the largest allowed candidate's, BYOK-priced. */
  reservedMicros: string | null;
  /** The account could cover what was asked of it (false: the 402 is the account's). */
  accountOk: boolean;
  /** The key's window could cover it (false: the 402 is the key's; both true: the member's). */
  keyOk: boolean;
  reservationId: string | null;
  /** What the account (and the key's spend window, when it has a limit) can still cover after this reservation. */
  headroomMicros: string | null;
  /** Admitted against the named credit lease (no account or window hold). */
  drawn: boolean | null;
  /** The named credit lease is live (false: it was released; the process must forget it). */
  leaseLive: boolean | null;
  /** Neither a spend-limited membership nor (see hasCreditLimit) a key limit: a later request may be drawn from a lease. */
  memberUnlimited: boolean | null;
}

/** Decides `requests` in one statement; the result's i-th row answers requests[i]. */
export async function reserveInOneStatement(requests: readonly ReservationRequest[], now: Date): Promise<ReservationRow[]> {
  const items = requests.map((r, ord) => ({
    ord,
    h: r.keyHash,
    kid: r.keyId,
    acct: r.accountId,
    uid: r.userId,
    tok: r.authTokenId,
    model: r.model,
    al: r.modelAliases ?? [],
    provider: r.provider,
    g: r.generationId,
    amount: r.amountMicros.toString(),
    cands: r.candidates?.map((c) => ({ p: c.provider, a: c.amountMicros.toString(), b: c.byokAmountMicros.toString() })) ?? null,
    rid: newRowId(),
    exp: ts(new Date(now.getTime() + (r.ttlMs ?? DEFAULT_TTL_MS))),
    lid: r.leaseId ?? null,
  }));
  const params = [JSON.stringify(items), ts(now), ts(currentWindowStart('DAILY', now)), ts(currentWindowStart('WEEKLY', now)), ts(currentWindowStart('MONTHLY', now))];
  const { rows } = await withDeadlockRetry(async () => (await database()).sql.query<{ row: ReservationRow & { ord: number } }>(RESERVE_SQL, params, { name: 'sb_reserve', asyncCommit: true }));
  const byOrder: ReservationRow[] = new Array(requests.length);
  for (const { row } of rows) byOrder[row.ord] = row;
  return byOrder;
}

export interface ReserveInput {
  accountId: string;
  generationId: string;
  amountMicros: bigint;
  candidates?: readonly ReservationCandidate[];
  /** The principal's API key: its checks and spend window apply as well. */
  apiKey?: { id: string };
  userId?: string;
  authTokenId?: string;
  model?: string;
  modelAliases?: readonly string[];
  provider?: string;
  /** How long before the sweeper may settle it if this process dies (default 15 min). */
  ttlMs?: number;
  now?: Date;
}

/** What an admitted reservation tells the gateway about the account's policy and keys. */
export interface ReservationGrant {
  reservationId: string;
  /** The amount actually held (the largest allowed candidate's, BYOK-priced). */
  reservedMicros: bigint;
  policy: AccountPolicy;
}

export interface AccountPolicy {
  /** The organization's model allow-list (null: every model): the requested model was checked by the statement; fallbacks against this. */
  allowedModels: string[] | null;
  /** The organization's provider allow-list (null: every provider). */
  allowedProviders: string[] | null;
  /** The account's own provider keys (encrypted), by provider id, for the request's candidates. */
  byokKeys: Record<string, string> | null;
  /** No model or provider policy and no provider keys: a request may be dispatched before admission. */
  plain: boolean;
  rateLimitRpm: number | null;
  rateLimitTpm: number | null;
}

export const policyOf = (row: ReservationRow): AccountPolicy => ({
  allowedModels: row.orgAllowedModels,
  allowedProviders: row.allowedProviders,
  byokKeys: row.byokKeys,
  plain: row.plain,
  rateLimitRpm: row.rateLimitRpm,
  rateLimitTpm: row.rateLimitTpm,
});

/**
 * Holds the worst case for an authenticated principal. Throws 402 when the account, the key's or the member's
 * window cannot cover it, 403 when the organization's policy or the key refuses the model, and 401 when the
 * key was deleted or expired meanwhile.
 */
export async function reserveCredits(input: ReserveInput): Promise<ReservationGrant> {
  const [row] = await reserveInOneStatement(
    [{
      accountId: input.accountId,
      keyId: input.apiKey?.id,
      userId: input.userId,
      authTokenId: input.authTokenId,
      model: input.model ?? '',
      modelAliases: input.modelAliases,
      provider: input.provider ?? '',
      generationId: input.generationId,
      amountMicros: input.amountMicros,
      candidates: input.candidates,
      ttlMs: input.ttlMs,
    }],
    input.now ?? new Date(),
  );
  if (row?.reservationId) return { reservationId: row.reservationId, reservedMicros: BigInt(row.reservedMicros ?? input.amountMicros), policy: policyOf(row) };
  if (input.apiKey) {
    if (!row?.id || row.deleted) throw new AppError('unauthorized', 'Invalid API key');
    if (row.expired) throw new AppError('unauthorized', 'This API key has expired');
    refuseDisabledKey(row);
    if (!row.modelAllowed) throw new AppError('forbidden', `This API key may not use ${input.model}`, { model: input.model });
  }
  if (!row) throw new AppError('not_found', 'Account not found');
  refuseDisabledKey(row);
  refuseByPolicy(row, input.model ?? '');
  return refuseReservation({ accountId: input.accountId, apiKeyId: input.apiKey?.id, membershipId: row.membershipId, amountMicros: BigInt(row.reservedMicros ?? input.amountMicros) }, row);
}
