// The playground's chat route through HTTP (test/api-server.ts serves the real route handler): its own
// refusals carry the request id like every other error body.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('POST /api/console/chat refusals', () => {
  let api: ApiServer;
  beforeAll(async () => {
    process.env.AUTH_SECRET ??= 'console-chat-test-secret-0123456789abcdef';
    resetEnvCache();
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  const post = (headers: Record<string, string> = {}) =>
    fetch(`${api.origin}/api/console/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('401 without a session: metadata.request_id and the same x-request-id header', async () => {
    const res = await post();
    expect(res.status).toBe(401);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);
    expect((await res.json()).error).toEqual({ code: 401, message: 'Sign in to use the playground', metadata: { error_type: 'unauthorized', request_id: requestId } });
  });

  it('401 with a session cookie that is not one', async () => {
    const res = await post({ cookie: 'authjs.session-token=not-a-jwt' });
    expect(res.status).toBe(401);
    expect((await res.json()).error.metadata.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('403 for a cross-site request, with its request id too', async () => {
    const res = await post({ origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);
    expect((await res.json()).error.metadata).toEqual({ error_type: 'forbidden', request_id: requestId });
  });
});
