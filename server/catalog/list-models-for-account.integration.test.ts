// The console's model list for one account: usability from the routing table and the organization's policy,
// and whether the balance covers the key dialog's first request.
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { createTestOrganization, createTestUser } from '@/test/factories';
import { describeEachDatabase } from '@/test/db';
import { listModelsForAccount } from './list-models-for-account';
import { pickTryItModel } from './try-it-request';

// Tests route switchboard/echo priced at $1/M (test/fixtures/priced-echo.yaml) and configure no provider
// key, so echo is the one usable model here: it is what the balance must cover.
describeEachDatabase('listModelsForAccount', () => {
  it('the trial request is covered once the balance holds its reservation, not before', async () => {
    const { user } = await createTestUser(0);
    const empty = await listModelsForAccount({ accountId: user.personal_account_id });
    const echo = empty.data.find((m) => m.id === 'switchboard/echo')!;
    expect(echo.usability.usable).toBe(true);
    expect(echo.trial.reserved).toBeGreaterThan(0);
    expect(echo.trial.covered).toBe(false);
    // A model whose provider has no key here is marked, with the reason.
    const claude = empty.data.find((m) => m.id === 'anthropic/claude-sonnet-4.5')!;
    expect(claude.usability).toMatchObject({ usable: false, reason: 'provider_not_configured' });

    const { user: rich } = await createTestUser(1);
    const funded = await listModelsForAccount({ accountId: rich.personal_account_id });
    expect(funded.data.find((m) => m.id === 'switchboard/echo')!.trial.covered).toBe(true);
    expect(pickTryItModel(funded.data)).toBe('switchboard/echo');
  });

  it("marks models outside the organization's allowed_models and returns its default_model", async () => {
    const { user } = await createTestUser(0);
    const org = await createTestOrganization({ members: [{ userId: user.id, role: 'OWNER' }], usd: 5 });
    await (await db()).organization.update({ where: { id: org.id }, data: { settings: { allowed_models: ['openai/gpt-4o-mini'], default_model: 'openai/gpt-4o-mini' } } });
    const r = await listModelsForAccount({ accountId: org.id });
    expect(r.default_model).toBe('openai/gpt-4o-mini');
    expect(r.data.find((m) => m.id === 'switchboard/echo')!.usability).toMatchObject({ usable: false, reason: 'organization_policy' });

    await (await db()).organization.update({ where: { id: org.id }, data: { settings: { allowed_providers: ['echo'] } } });
    const byProvider = await listModelsForAccount({ accountId: org.id });
    expect(byProvider.data.find((m) => m.id === 'switchboard/echo')!.usability.usable).toBe(true);
    expect(byProvider.default_model).toBeNull();
  });
});
