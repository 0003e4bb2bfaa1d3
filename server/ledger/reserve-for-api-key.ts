// The chat path's admission for an API key in ONE statement: authenticate the key by its hash (no cache: a
// deleted or expired key fails on the very next request), check that it may use the model, and reserve the
// worst-case cost against its account and its spend window — the same checks and writes as
// authenticateBearer followed by reserveCredits, in one round trip instead of two. The rules themselves are
// reserve-sql.ts's (RESERVE_SQL); this file turns its answer into a principal or the caller's error.
// KeyAdmissionBatcher (key-admission-batcher.ts) groups the admissions of a busy key into one statement.
import { AppError } from '@/server/errors';
import type { Principal } from '@/server/auth/authenticate-bearer';
import { withRefusedPrincipal } from '@/server/auth/refused-principal';
import { secretsEqual } from '@/server/auth/secret-token';
import { refuseByPolicy, refuseDisabledKey, refuseReservation } from './reservation-refusals';
import { policyOf, reserveInOneStatement, type AccountPolicy, type ReservationRequest, type ReservationRow } from './reserve';

/** A reservation request for a key given by hash (the statement authenticates it). */
export type KeyAdmissionInput = Pick<ReservationRequest, 'model' | 'modelAliases' | 'provider' | 'generationId' | 'amountMicros' | 'candidates' | 'ttlMs' | 'leaseId'> & {
  /** SHA-256 hash of a well-formed API key (hashSecret). */
  keyHash: string;
  now?: Date;
};

export type KeyAdmission =
  | {
      admitted: true;
      principal: Principal;
      reservationId: string;
      /** The amount held (the largest allowed candidate's, BYOK-priced). */
      reservedMicros: bigint;
      /** Credit left after this reservation: the least of the account's and, with limits, the key's and member's windows'. */
      headroomMicros: bigint;
      policy: AccountPolicy;
    }
  /** The key is valid but may not use this model: nothing was reserved. */
  | { admitted: false; principal: Principal };

/**
 * One admission in one statement, unbatched (KeyAdmissionBatcher groups the chat path's). Throws the 401 of
 * authenticateBearer for a missing, deleted or expired key, 403 for a disabled key or the organization's policy, and
 * the 402 of reserveCredits when the account, the key's or the member's window cannot cover the amount.
 */
export async function reserveForApiKey(input: KeyAdmissionInput, now = input.now ?? new Date()): Promise<KeyAdmission> {
  const [row] = await reserveInOneStatement([input], now);
  return interpretKeyAdmission(row, input);
}

export function interpretKeyAdmission(row: ReservationRow | undefined, input: KeyAdmissionInput): Promise<KeyAdmission> | KeyAdmission {
  if (!row?.id || !row.keyHash || !secretsEqual(row.keyHash, input.keyHash) || row.deleted) throw new AppError('unauthorized', 'Invalid API key');
  if (row.expired) throw new AppError('unauthorized', 'This API key has expired');
  const principal: Principal = {
    kind: 'api_key',
    userId: row.userId,
    accountId: row.accountId,
    apiKey: { id: row.id, limitReset: row.limitReset, allowedModels: row.allowedModels ?? [], hasCreditLimit: row.hasCreditLimit },
  };
  // Refusals from here on name the key's principal (the gateway records them on its account).
  try {
    refuseDisabledKey(row);
    if (!row.modelAllowed) return { admitted: false, principal };
    refuseByPolicy(row, input.model);
  } catch (err) {
    throw withRefusedPrincipal(err, principal);
  }
  if (!row.reservationId) {
    return refuseReservation({ accountId: row.accountId, apiKeyId: row.id, membershipId: row.membershipId, amountMicros: BigInt(row.reservedMicros ?? input.amountMicros) }, row).catch((err: unknown) => {
      throw withRefusedPrincipal(err, principal);
    });
  }
  return {
    admitted: true,
    principal,
    reservationId: row.reservationId,
    reservedMicros: BigInt(row.reservedMicros ?? input.amountMicros),
    headroomMicros: BigInt(row.headroomMicros ?? '0'),
    policy: policyOf(row),
  };
}
