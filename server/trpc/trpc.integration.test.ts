import { TRPCError } from '@trpc/server';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fundedUser } from '@/test/gateway-harness';
import { createCaller } from './root';

describeEachDatabase('tRPC (the console transport)', () => {
  it('manages API keys through the same services as REST, shown once', async () => {
    const u = await fundedUser(1);
    const caller = createCaller({ principal: { kind: 'session', userId: u.user.id, accountId: u.user.personal_account_id } });
    const created = await caller.apiKeys.create({ name: 'From the console' });
    expect(created.key).toMatch(/^sk-sb-v1-/);
    const list = await caller.apiKeys.list();
    expect(list.map((k) => k.id)).toContain(created.apiKey.id);
    expect(JSON.stringify(list)).not.toContain(created.key);
    await caller.apiKeys.delete({ id: created.apiKey.id });
    expect((await caller.apiKeys.list()).map((k) => k.id)).not.toContain(created.apiKey.id);
  });

  it('refuses the signed-out, bad input and other tenants with the right codes and the service message', async () => {
    await expect(createCaller({ principal: null }).apiKeys.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const a = await fundedUser(1);
    const b = await fundedUser(1);
    const callerB = createCaller({ principal: { kind: 'session', userId: b.user.id, accountId: b.user.personal_account_id } });
    await expect(callerB.apiKeys.create({ name: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const err = await callerB.apiKeys.delete({ id: a.apiKey.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'API key not found' });
  });
});
