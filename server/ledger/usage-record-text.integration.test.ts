// Usage records hold text from outside (the model as asked for, our error message quoting the body, an
// upstream's error message or response id), and PostgreSQL text cannot hold NUL. A request refused for a
// model or tool_call_id with a NUL was answered correctly (404, 400) but its record was refused by the
// database, retried and given up: missing from GET /usages?include_refused=true. A generation whose upstream
// echoed a NUL (or sent a lone surrogate) would fail the settlement batch (jsonb) and then its own
// transaction, retried for ever. Every such text is now stored with U+FFFD in place of what cannot be.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller } from '@/test/factories';
import { readFixture } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { storableText } from './storable-text';

it('storableText: NUL and unpaired surrogates become U+FFFD; a cut never splits a pair', () => {
  expect(storableText('a\u0000b', 10)).toBe('a\uFFFDb');
  expect(storableText('x\uD83Dy\uDE00', 10)).toBe('x\uFFFDy\uFFFD');
  expect(storableText('ok \uD83D\uDE00', 10)).toBe('ok \uD83D\uDE00');
  expect(storableText('ab\uD83D\uDE00', 3)).toBe('ab');
  expect(storableText('abcdef', 3)).toBe('abc');
});

describeEachDatabase('usage records hold any text the client or upstream sent', () => {
  let h: GatewayHarness;
  let api: ApiServer;
  const call = apiCaller(() => api.origin);

  beforeAll(async () => {
    h = await startGatewayHarness();
    api = await startApiServer();
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  const post = (path: string, body: unknown, key: string) =>
    fetch(`${h.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });

  async function refusedRows(key: string) {
    const res = await call('GET', '/users/me/usages?include_refused=true', key);
    expect(res.status).toBe(200);
    return (await res.json()).data as { status: string; http_status: number; model: string }[];
  }

  it('refusals for a NUL in the model or a tool_call_id are recorded (chat, messages)', async () => {
    const u = await fundedUser(10);
    const nulModel = 'nope\u0000x';
    expect((await post('/chat/completions', { model: nulModel, messages: [{ role: 'user', content: 'hi' }] }, u.key)).status).toBe(404);
    const orphan = { model: 'switchboard/echo', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'z\u0000', content: '{}' }] };
    expect((await post('/chat/completions', orphan, u.key)).status).toBe(400);
    expect((await post('/messages', { model: nulModel, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, u.key)).status).toBe(404);
    await h.runtime.settlements.flush();

    const rows = await refusedRows(u.key);
    expect(rows.map((r) => [r.status, r.http_status, r.model]).sort()).toEqual([
      ['refused', 400, 'switchboard/echo'],
      ['refused', 404, 'nope\uFFFDx'],
      ['refused', 404, 'nope\uFFFDx'],
    ]);
    const stored = await (await db()).usageRecord.findMany({ where: { accountId: u.user.personal_account_id }, select: { errorMessage: true } });
    for (const r of stored) expect(r.errorMessage).not.toContain('\u0000');
  });

  it('a generation whose upstream error echoes a NUL, or whose response id holds one, is settled and listed', async () => {
    const u = await fundedUser(10);
    const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: false };
    // Written by the batch statement itself, not only by the item-by-item fallback after it failed.
    const errors = vi.spyOn(console, 'error');
    try {
      // An upstream 400 quoting the client's text back: the generation ends as an error, at no charge.
      h.respond = () => ({ status: 400, json: { error: { message: "Invalid 'messages[0].name': 'a\u0000b\uD800'", type: 'invalid_request_error' } } });
      const failed = await post('/chat/completions', chat, u.key);
      expect(failed.status).toBe(400);
      // A success whose upstream id holds a NUL and a lone surrogate.
      h.respond = () => ({ status: 200, json: { ...JSON.parse(readFixture('openai', 'text.json')), id: 'chatcmpl-\u0000\uDC00' } });
      expect((await post('/chat/completions', chat, u.key)).status).toBe(200);
      await h.runtime.settlements.flush();

      const rows = await (await db()).usageRecord.findMany({ where: { accountId: u.user.personal_account_id }, orderBy: { status: 'asc' } });
      expect(rows.map((r) => r.status).sort()).toEqual(['ERROR', 'SUCCESS']);
      const error = rows.find((r) => r.status === 'ERROR')!;
      const success = rows.find((r) => r.status === 'SUCCESS')!;
      expect(error).toMatchObject({ httpStatus: 400, costMicros: 0n, errorMessage: "The provider (openai) rejected the request: Invalid 'messages[0].name': 'a\uFFFDb\uFFFD'" });
      expect(success.upstreamId).toBe('chatcmpl-\uFFFD\uFFFD');
      expect(success.costMicros).toBeGreaterThan(0n);
      const listed = await call('GET', '/users/me/usages', u.key);
      expect((await listed.json()).data).toHaveLength(2);
      // Nothing left waiting: both reservations were closed.
      expect(await (await db()).reservation.count({ where: { accountId: u.user.personal_account_id, status: 'ACTIVE' } })).toBe(0);
      expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => /usage flush|settlement of/.test(m))).toEqual([]);
    } finally {
      errors.mockRestore();
      h.respond = () => ({ status: 500, json: { error: { message: 'no responder set' } } });
    }
  });
});
