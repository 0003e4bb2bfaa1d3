// Responses kept for `store: true` (prisma model StoredResponse): 30 days, for the user who made them and, in an
// organization, the members allowed to read everyone's usage (usage:read-all), as for GET /generation.
// Reads never return an expired row, and delete it when they meet one; rows nobody reads again are removed
// by deleteExpiredResponses, which the ledger sweeper's timer runs (server/ledger/sweeper.ts).
import type { Prisma } from '@/server/db/generated/client';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { storableText } from '@/server/ledger/storable-text';
import type { ResponsesInputItem } from './responses-request-schema';

export const STORED_RESPONSE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface StoredResponseRecord {
  id: string;
  accountId: string;
  /** The user who made it. */
  userId: string;
  /** The conversation up to this response (previous ones expanded), as Responses input items. */
  input: ResponsesInputItem[];
  /** This response's output items (reasoning with encrypted_content always kept, for continuation). */
  output: Record<string, unknown>[];
  /** The response object as the client received it. */
  response: Record<string, unknown>;
}

/**
 * The same answer for a missing, expired or foreign id: whether someone else's exists is not told. `param` names
 * the body field that held the id (previous_response_id); for the id in the path (GET/DELETE) there is none.
 */
export const responseNotFound = (id: string, param?: 'previous_response_id') => new AppError('not_found', `Response with id '${id}' not found.`, param ? { param } : {});

/**
 * `value` (JSON: what is stored) with NUL and unpaired UTF-16 surrogates replaced by U+FFFD in every string, keys
 * included. PostgreSQL/PGlite jsonb and text cannot hold \u0000, and an unpaired surrogate is refused too, so one
 * such character in the model's output would fail the whole row and the id the client was given would answer 404.
 * The client's input with such characters is refused with a 400 when store is true (responses-request-schema.ts), but
 * the upstream's output cannot be refused: the answer the client received is sent unchanged, and only this stored
 * copy (what GET /responses/{id} returns and what previous_response_id continues from) holds U+FFFD in their place.
 * Keys that differed only by such characters become one (the later wins).
 */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value, value.length) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => storableJson(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[storableText(k, k.length)] = storableJson(v);
    return out as T;
  }
  return value;
}

export async function saveStoredResponse(input: {
  id: string;
  accountId: string;
  userId: string;
  apiKeyId: string | null;
  model: string;
  conversation: ResponsesInputItem[];
  output: Record<string, unknown>[];
  response: Record<string, unknown>;
  now?: Date;
}): Promise<void> {
  const now = input.now ?? new Date();
  await (await db()).storedResponse.create({
    data: {
      id: input.id,
      accountId: input.accountId,
      userId: input.userId,
      apiKeyId: input.apiKeyId,
      // Stored copies, made storable (see storableJson): the model name too, since it is a text column.
      model: storableText(input.model, input.model.length),
      input: storableJson(input.conversation) as Prisma.InputJsonValue,
      output: storableJson(input.output) as Prisma.InputJsonValue,
      response: storableJson(input.response) as Prisma.InputJsonValue,
      createdAt: now,
      expiresAt: new Date(now.getTime() + STORED_RESPONSE_TTL_MS),
    },
  });
}

/** The stored response by id, whoever owns it (the caller checks); null when absent or expired. */
export async function findStoredResponse(id: string, now = new Date()): Promise<StoredResponseRecord | null> {
  const client = await db();
  const row = await client.storedResponse.findUnique({ where: { id }, select: { id: true, accountId: true, userId: true, input: true, output: true, response: true, expiresAt: true } });
  if (!row) return null;
  if (row.expiresAt <= now) {
    await client.storedResponse.deleteMany({ where: { id, expiresAt: { lte: now } } });
    return null;
  }
  return { id: row.id, accountId: row.accountId, userId: row.userId, input: row.input as ResponsesInputItem[], output: row.output as Record<string, unknown>[], response: row.response as Record<string, unknown> };
}

/**
 * Whether `caller` may see a stored response (GET, DELETE, previous_response_id): the rule of GET /generation
 * (server/usage/get-generation.ts). Only from its account, and there by the user who made it or by a member whose
 * role may read everyone's usage (usage:read-all: owner, admin, billing); a plain member sees only their own. On a
 * personal account its owner is the only user, so nothing changes there.
 */
export async function mayAccessStoredResponse(owner: { accountId: string; userId: string }, caller: { accountId: string; userId: string }): Promise<boolean> {
  if (owner.accountId !== caller.accountId) return false;
  if (owner.userId === caller.userId) return true;
  return assertAccountAccess({ userId: caller.userId, accountId: owner.accountId, permission: 'usage:read-all' }).then(
    () => true,
    (err: unknown) => {
      if (err instanceof AppError) return false;
      throw err;
    },
  );
}

/** The same 404 as for a missing id unless `caller` may see stored response `id` (mayAccessStoredResponse). */
export async function assertStoredResponseVisible(id: string, caller: { accountId: string; userId: string }): Promise<void> {
  const found = await findStoredResponse(id);
  if (!found || !(await mayAccessStoredResponse(found, caller))) throw responseNotFound(id);
}

/** GET /api/v1/responses/{id}: the response object, within its account (404 otherwise; the route checks the user first). */
export async function getStoredResponseOrThrow(input: { id: string; accountId: string }): Promise<Record<string, unknown>> {
  const found = await findStoredResponse(input.id);
  if (!found || found.accountId !== input.accountId) throw responseNotFound(input.id);
  return found.response;
}

/** DELETE /api/v1/responses/{id}: OpenAI's deletion object; 404 for an id this account does not hold (the route checks the user first). */
export async function deleteStoredResponse(input: { id: string; accountId: string; now?: Date }): Promise<{ id: string; object: 'response'; deleted: true }> {
  const { count } = await (await db()).storedResponse.deleteMany({ where: { id: input.id, accountId: input.accountId, expiresAt: { gt: input.now ?? new Date() } } });
  if (count === 0) throw responseNotFound(input.id);
  return { id: input.id, object: 'response', deleted: true };
}

export async function deleteExpiredResponses(now = new Date()): Promise<number> {
  const { count } = await (await db()).storedResponse.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
