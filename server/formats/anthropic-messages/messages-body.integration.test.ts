// What /messages and /messages/count_tokens say about a body they refuse: count_tokens took text/plain
// (200) where /messages answers 415; a max_tokens of -1, 1.5 or 1e400 was called "required"; the 413 named
// "26 MB" for a 25 MiB limit.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '@/server/gateway/chat-request-schema';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('Anthropic Messages: refused bodies', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
  });
  afterAll(() => h?.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${h.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers }, body });
  const countBody = JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }] });

  it('count_tokens refuses a body that is not JSON with 415, as /messages does', async () => {
    for (const path of ['/messages', '/messages/count_tokens']) {
      const res = await post(path, countBody, { 'content-type': 'text/plain' });
      expect(res.status, path).toBe(415);
      expect(await res.json(), path).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'Content-Type must be application/json' } });
    }
    expect((await post('/messages/count_tokens', countBody)).status).toBe(200);
    expect((await post('/messages/count_tokens', countBody, { 'content-type': 'application/vnd.api+json' })).status).toBe(200);
  });

  it('max_tokens: missing is "required"; a value that is not a positive integer says so', async () => {
    const body = (maxTokens: string | null) =>
      `{"model":"switchboard/echo",${maxTokens === null ? '' : `"max_tokens":${maxTokens},`}"messages":[{"role":"user","content":"hi"}]}`;
    const missing = await post('/messages', body(null));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toBe('max_tokens: max_tokens is required (the most tokens to generate)');
    for (const value of ['-1', '0', '1.5', '1e400', '"10"', 'null']) {
      const res = await post('/messages', body(value));
      expect(res.status, value).toBe(400);
      expect((await res.json()).error.message, value).toBe('max_tokens: max_tokens must be a positive integer (the most tokens to generate)');
    }
    // count_tokens takes max_tokens as optional, and says the same of a bad one.
    const count = await post('/messages/count_tokens', body('1.5'));
    expect(count.status).toBe(400);
    expect((await count.json()).error.message).toBe('max_tokens: max_tokens must be a positive integer (the most tokens to generate)');
  });

  it('413 states the limit exactly (25 MiB)', async () => {
    const res = await post('/messages', 'x'.repeat(MAX_BODY_BYTES + 1));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large', message: 'Request body is larger than the limit of 25 MiB' } });
  });
});
