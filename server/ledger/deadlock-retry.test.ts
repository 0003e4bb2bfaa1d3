import { describe, expect, it } from 'vitest';
import { isDeadlockVictim, withDeadlockRetry } from './deadlock-retry';

describe('withDeadlockRetry', () => {
  // What the ledger property test met on PostgreSQL: Prisma's P2010 around the driver adapter's TransactionWriteConflict.
  const prismaDeadlock = Object.assign(new Error('Raw query failed. Code: `40P01`. Message: `deadlock detected`'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'TransactionWriteConflict' } } } });

  it('knows a deadlock victim from node-postgres and through Prisma, and nothing else', () => {
    expect(isDeadlockVictim(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(true);
    expect(isDeadlockVictim(prismaDeadlock)).toBe(true);
    expect(isDeadlockVictim(Object.assign(new Error('write conflict'), { code: 'P2034' }))).toBe(true);
    expect(isDeadlockVictim(Object.assign(new Error('Raw query failed. Code: `23505`. Message: `duplicate key`'), { code: 'P2010' }))).toBe(false);
    expect(isDeadlockVictim(new Error('deadlock detected'))).toBe(false);
    expect(isDeadlockVictim(null)).toBe(false);
  });

  it('runs a deadlock victim again, up to three times, and lets any other error through at once', async () => {
    let calls = 0;
    expect(await withDeadlockRetry(async () => (++calls < 3 ? Promise.reject(prismaDeadlock) : 'done'))).toBe('done');
    expect(calls).toBe(3);
    calls = 0;
    await expect(withDeadlockRetry(async () => (++calls, Promise.reject(prismaDeadlock)))).rejects.toBe(prismaDeadlock);
    expect(calls).toBe(3);
    calls = 0;
    const other = new Error('not found');
    await expect(withDeadlockRetry(async () => (++calls, Promise.reject(other)))).rejects.toBe(other);
    expect(calls).toBe(1);
  });
});
