// The usage endpoints through HTTP: who sees which rows, cursor pagination, filters, SQL grouping, and
// GET /generation for a generation made through the real chat path.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller, createTestKey, createTestOrganization, createTestUser, insertUsage } from '@/test/factories';

const T0 = Date.parse('2026-03-10T00:00:00Z');
const at = (hours: number) => new Date(T0 + hours * 3_600_000);

describeEachDatabase('REST usage and generation', () => {
  let api: ApiServer;
  const call = apiCaller(() => api.origin);
  let owner: Awaited<ReturnType<typeof createTestUser>>;
  let admin: Awaited<ReturnType<typeof createTestUser>>;
  let member: Awaited<ReturnType<typeof createTestUser>>;
  let other: Awaited<ReturnType<typeof createTestUser>>;
  let stranger: Awaited<ReturnType<typeof createTestUser>>;
  let org: { id: string };
  let memberOrgKey: { key: string; id: string };
  const ids: Record<string, string[]> = {};

  beforeAll(async () => {
    api = await startApiServer();
    [owner, admin, member, other, stranger] = await Promise.all([createTestUser(5), createTestUser(), createTestUser(), createTestUser(), createTestUser()]);
    org = await createTestOrganization({ usd: 5, members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: admin.user.id, role: 'ADMIN' }, { userId: member.user.id, role: 'MEMBER' }, { userId: other.user.id, role: 'MEMBER' }] });
    memberOrgKey = await createTestKey(member.user.id, org.id);
    // member: 3 rows in the organization (two models, one error), 1 on their personal account
    ids.memberOrg = await insertUsage([
      { accountId: org.id, userId: member.user.id, apiKeyId: memberOrgKey.id, model: 'openai/gpt-4o-mini', createdAt: at(1), promptTokens: 100, completionTokens: 10, cachedTokens: 40, costMicros: 1_000n, cacheSavingsMicros: 3n },
      { accountId: org.id, userId: member.user.id, apiKeyId: memberOrgKey.id, model: 'anthropic/claude-haiku-4.5', createdAt: at(2), promptTokens: 200, completionTokens: 20, reasoningTokens: 5, costMicros: 2_000n },
      { accountId: org.id, userId: member.user.id, model: 'openai/gpt-4o-mini', createdAt: at(26), status: 'ERROR', errorCode: 'server_error', costMicros: 0n },
    ]);
    ids.memberPersonal = await insertUsage([{ accountId: member.user.personal_account_id, userId: member.user.id, createdAt: at(3), costMicros: 500n }]);
    ids.otherOrg = await insertUsage([{ accountId: org.id, userId: other.user.id, createdAt: at(4), costMicros: 7_000n }]);
  });
  afterAll(() => api?.close());

  const get = async (path: string, key: string) => {
    const res = await call('GET', path, key);
    return { status: res.status, body: await res.json() };
  };

  it('/users/{id}/usages: your own generations on every account, nobody else’s', async () => {
    const { status, body } = await get('/users/me/usages', member.key);
    expect(status).toBe(200);
    expect(body.data.map((r: any) => r.id).sort()).toEqual([...ids.memberOrg, ...ids.memberPersonal].sort());
    expect(body).toMatchObject({ next_cursor: null, visibility: 'own' });
    const first = body.data.find((r: any) => r.id === ids.memberOrg[0]);
    expect(first).toMatchObject({ account_id: org.id, user_id: member.user.id, api_key_id: memberOrgKey.id, model: 'openai/gpt-4o-mini', status: 'success', prompt_tokens: 100, cached_tokens: 40, total_tokens: 110, cost: 0.001, cost_micros: '1000', created_at: at(1).toISOString() });
    const personal = await get(`/users/${member.user.id}/usages?account_id=${member.user.personal_account_id}`, member.key);
    expect(personal.body.data.map((r: any) => r.id)).toEqual(ids.memberPersonal);
    expect((await get(`/users/${other.user.id}/usages`, member.key)).status).toBe(404);
    expect((await call('GET', '/users/me/usages', null)).status).toBe(401);
  });

  it('pages newest first with an opaque cursor, ties broken by id, every row exactly once', async () => {
    const u = await createTestUser();
    const same = at(50);
    const rows = await insertUsage([0, 1, 2, 3, 4].map((h) => ({ accountId: u.user.personal_account_id, userId: u.user.id, createdAt: at(40 + h) })).concat([{ accountId: u.user.personal_account_id, userId: u.user.id, createdAt: same }, { accountId: u.user.personal_account_id, userId: u.user.id, createdAt: same }]));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { status, body }: { status: number; body: any } = await get(`/users/me/usages?limit=3${cursor ? `&cursor=${cursor}` : ''}`, u.key);
      expect(status).toBe(200);
      expect(body.data.length).toBeLessThanOrEqual(3);
      seen.push(...body.data.map((r: any) => r.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(rows));
    const tied = rows.slice(5).sort().reverse();
    expect(seen.slice(0, 2)).toEqual(tied); // same createdAt: id descending
    expect((await get('/users/me/usages?cursor=not-a-cursor', u.key)).status).toBe(400);
    expect((await get('/users/me/usages?limit=201', u.key)).status).toBe(400);
    expect((await get('/users/me/usages?limit=0', u.key)).status).toBe(400);
  });

  it('filters by time (from inclusive, to exclusive), model, key and status', async () => {
    const q = async (qs: string) => (await get(`/users/me/usages?${qs}`, member.key)).body.data.map((r: any) => r.id);
    expect(await q(`from=${at(2).toISOString()}&to=${at(26).toISOString()}`)).toEqual([ids.memberPersonal[0], ids.memberOrg[1]]);
    expect(await q('from=2026-03-11')).toEqual([ids.memberOrg[2]]);
    expect((await q('model=openai/gpt-4o-mini')).sort()).toEqual([ids.memberOrg[0], ids.memberOrg[2], ids.memberPersonal[0]].sort());
    expect(await q(`api_key_id=${memberOrgKey.id}`)).toEqual([ids.memberOrg[1], ids.memberOrg[0]]);
    expect(await q('status=error')).toEqual([ids.memberOrg[2]]);
    expect((await get('/users/me/usages?from=2026-03-12&to=2026-03-11', member.key)).status).toBe(400);
    expect((await get('/users/me/usages?from=yesterday', member.key)).status).toBe(400);
    expect((await get('/users/me/usages?status=weird', member.key)).status).toBe(400);
  });

  it('groups by UTC day and by model in SQL', async () => {
    const byDay = await get(`/organizations/${org.id}/usages?group_by=day`, owner.key);
    expect(byDay.status).toBe(200);
    expect(byDay.body).toMatchObject({ group_by: 'day', next_cursor: null, visibility: 'account' });
    expect(byDay.body.data).toEqual([
      { day: '2026-03-11', requests: 1, errors: 1, prompt_tokens: 10, completion_tokens: 5, cached_tokens: 0, reasoning_tokens: 0, cost: 0, cost_micros: '0', cache_savings: 0, cache_savings_micros: '0' },
      { day: '2026-03-10', requests: 3, errors: 0, prompt_tokens: 310, completion_tokens: 35, cached_tokens: 40, reasoning_tokens: 5, cost: 0.01, cost_micros: '10000', cache_savings: 0.000003, cache_savings_micros: '3' },
    ]);
    const byModel = await get(`/organizations/${org.id}/usages?group_by=model&to=2026-03-11`, owner.key);
    expect(byModel.body.data.map((g: any) => [g.model, g.requests, g.cost_micros])).toEqual([
      ['openai/gpt-4o-mini', 2, '8000'],
      ['anthropic/claude-haiku-4.5', 1, '2000'],
    ]);
    // A member's groups cover only their own rows.
    const mine = await get(`/organizations/${org.id}/usages?group_by=model`, member.key);
    expect(mine.body.visibility).toBe('own');
    expect(mine.body.data.reduce((n: number, g: any) => n + g.requests, 0)).toBe(3);
  });

  it('organization usage: everyone’s for owners and admins, your own for members', async () => {
    const all = await get(`/organizations/${org.id}/usages`, admin.key);
    expect(all.body.data.map((r: any) => r.id).sort()).toEqual([...ids.memberOrg, ...ids.otherOrg].sort());
    const filtered = await get(`/organizations/${org.id}/usages?user_id=${other.user.id}`, admin.key);
    expect(filtered.body.data.map((r: any) => r.id)).toEqual(ids.otherOrg);
    const own = await get(`/organizations/${org.id}/usages`, member.key);
    expect(own.body).toMatchObject({ visibility: 'own' });
    expect(own.body.data.map((r: any) => r.id).sort()).toEqual([...ids.memberOrg].sort());
    const denied = await get(`/organizations/${org.id}/usages?user_id=${other.user.id}`, member.key);
    expect(denied.status).toBe(403);
    expect(denied.body.error.metadata.required_permission).toBe('usage:read-all');
    expect((await get(`/organizations/${org.id}/usages`, stranger.key)).status).toBe(404);
    expect((await get(`/organizations/${member.user.personal_account_id}/usages`, member.key)).status).toBe(404);
  });

  it('a member’s usage: admins see anyone’s, members only their own', async () => {
    const viaAdmin = await get(`/organizations/${org.id}/members/${member.user.id}/usages?limit=2`, admin.key);
    expect(viaAdmin.status).toBe(200);
    expect(viaAdmin.body.data.map((r: any) => r.id)).toEqual([ids.memberOrg[2], ids.memberOrg[1]]);
    expect(viaAdmin.body.next_cursor).toEqual(expect.any(String));
    expect((await get(`/organizations/${org.id}/members/${member.user.id}/usages`, member.key)).body.data).toHaveLength(3);
    expect((await get(`/organizations/${org.id}/members/${other.user.id}/usages`, member.key)).status).toBe(403);
    expect((await get(`/organizations/${org.id}/members/${stranger.user.id}/usages`, admin.key)).status).toBe(404);
    expect((await get(`/organizations/${org.id}/members/${member.user.id}/usages`, stranger.key)).status).toBe(404);
  });

  it('/generation: a chat generation’s full record to its owner and org admins, 404 to anyone else', async () => {
    const res = await fetch(`${api.origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${memberOrgKey.key}`, 'content-type': 'application/json', 'x-title': 'My App', 'http-referer': 'https://app.example', 'x-task-id': 'task-42' },
      body: JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'count these words please' }], stream: false }),
    });
    expect(res.status).toBe(200);
    const completion = await res.json();
    await api.runtime.settlements.flush();
    const mine = await get(`/generation?id=${completion.id}`, member.key);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      id: completion.id,
      model: 'switchboard/echo',
      provider_name: 'echo',
      account_id: org.id,
      user_id: member.user.id,
      api_key_id: memberOrgKey.id,
      streamed: false,
      cancelled: false,
      status: 'success',
      finish_reason: 'stop',
      tokens_prompt: completion.usage.prompt_tokens,
      tokens_completion: completion.usage.completion_tokens,
      total_cost: completion.usage.cost,
      origin: 'https://app.example',
      app_title: 'My App',
      task_id: 'task-42',
      error: null,
      byok: false,
      attempts: 1, // served in process (echo): one attempt all the same
    });
    expect(mine.body.data.latency).toEqual(expect.any(Number));
    expect(mine.body.data.request_id).toBe(res.headers.get('x-request-id'));
    expect((await get(`/generation?id=${completion.id}`, admin.key)).status).toBe(200);
    expect((await get(`/generation?id=${completion.id}`, owner.key)).status).toBe(200);
    expect((await get(`/generation?id=${completion.id}`, other.key)).status).toBe(404);
    expect((await get(`/generation?id=${completion.id}`, stranger.key)).status).toBe(404);
    expect((await get('/generation?id=gen-does-not-exist', member.key)).status).toBe(404);
    expect((await get('/generation', member.key)).status).toBe(400);
  });
});
