// One-statement admission for API keys (reserve-for-api-key.ts), alone and in groups: the same decisions as
// authenticateBearer + reserveCredits one request at a time — never more admitted than the account or the
// key's cap can cover, refusals with the same errors, and nothing held for a refused request.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { generateSecret, hashSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { createTestUser } from '@/test/factories';
import { getBalanceOrThrow } from './balance';
import { reserveForApiKey, type KeyAdmissionInput } from './reserve-for-api-key';

const req = (key: string, amountMicros: bigint, model = 'openai/gpt-4o-mini'): KeyAdmissionInput => ({ keyHash: hashSecret(key), model, provider: 'openai', generationId: `gen-${randomUUID()}`, amountMicros });

describeEachDatabase('admission of API keys in one statement', () => {
  it('concurrent admissions of one key never exceed the balance, and each refusal is a 402', async () => {
    const u = await createTestUser(1);
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => reserveForApiKey(req(u.key, 100_000n))));
    const admitted = results.filter((r) => r.status === 'fulfilled' && r.value.admitted);
    expect(admitted).toHaveLength(10);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('payment_required');
    const b = await getBalanceOrThrow(u.user.personal_account_id);
    expect(b.reservedMicros).toBe(1_000_000n);
    const active = await (await db()).reservation.count({ where: { accountId: u.user.personal_account_id, status: 'ACTIVE' } });
    expect(active).toBe(10);
  });

  it('a burst that fits is admitted in groups: one hold per request, the sums on the account and the key', async () => {
    const u = await createTestUser(10);
    const capped = await createApiKey({ userId: u.user.id, input: { name: 'capped', credit_limit: 5 } });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => reserveForApiKey(req(i % 2 ? capped.key : u.key, 50_000n))));
    expect(results.every((r) => r.admitted)).toBe(true);
    expect(new Set(results.map((r) => r.admitted && r.reservationId)).size).toBe(40);
    const prisma = await db();
    expect((await getBalanceOrThrow(u.user.personal_account_id)).reservedMicros).toBe(2_000_000n);
    expect(await prisma.reservation.count({ where: { accountId: u.user.personal_account_id, status: 'ACTIVE' } })).toBe(40);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: capped.apiKey.id } })).windowSpentMicros).toBe(1_000_000n);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: u.apiKeyId } })).windowSpentMicros).toBe(1_000_000n);
  });

  it('a capped key: the cap holds under concurrency while the account could pay more', async () => {
    const u = await createTestUser(10);
    const capped = await createApiKey({ userId: u.user.id, input: { name: 'capped', credit_limit: 0.5 } });
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => reserveForApiKey(req(capped.key, 100_000n))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'payment_required', metadata: { reason: 'key_limit' } });
    const key = await (await db()).apiKey.findUniqueOrThrow({ where: { id: capped.apiKey.id } });
    expect(key.windowSpentMicros).toBe(500_000n);
    expect((await getBalanceOrThrow(u.user.personal_account_id)).reservedMicros).toBe(500_000n);
  });

  it('a group mixing good, unknown, deleted, model-restricted and broke keys decides each as if alone', async () => {
    const rich = await createTestUser(10);
    const broke = await createTestUser(0);
    const limited = await createApiKey({ userId: rich.user.id, input: { name: 'limited', allowed_models: ['anthropic/claude-haiku-4.5'] } });
    const gone = await createApiKey({ userId: rich.user.id, input: { name: 'gone' } });
    await deleteApiKey({ userId: rich.user.id, keyId: gone.apiKey.id });
    const calls = [
      req(rich.key, 100_000n),
      req(generateSecret(TOKEN_PREFIX.apiKey), 100_000n),
      req(gone.key, 100_000n),
      req(limited.key, 100_000n),
      req(limited.key, 100_000n, 'anthropic/claude-haiku-4.5'),
      req(broke.key, 100_000n),
      req(rich.key, 200_000n),
    ];
    const results = await Promise.allSettled(calls.map((c) => reserveForApiKey(c)));
    const outcome = results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : r.value.admitted ? 'admitted' : 'forbidden'));
    expect(outcome).toEqual(['admitted', 'unauthorized', 'unauthorized', 'forbidden', 'admitted', 'payment_required', 'admitted']);
    expect((await getBalanceOrThrow(rich.user.personal_account_id)).reservedMicros).toBe(400_000n);
    expect((await getBalanceOrThrow(broke.user.personal_account_id)).reservedMicros).toBe(0n);
    const first = results[0];
    expect(first.status === 'fulfilled' && first.value.principal).toMatchObject({ kind: 'api_key', userId: rich.user.id, accountId: rich.user.personal_account_id, apiKey: { id: rich.apiKeyId } });
    const reservation = await (await db()).reservation.findUniqueOrThrow({ where: { generationId: calls[6].generationId } });
    expect(reservation).toMatchObject({ status: 'ACTIVE', amountMicros: 200_000n, apiKeyId: rich.apiKeyId, userId: rich.user.id, model: 'openai/gpt-4o-mini', provider: 'openai' });
  });
});
