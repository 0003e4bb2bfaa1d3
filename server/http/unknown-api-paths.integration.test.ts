// An /api/v1 path that names no route answers 404 in the error shape of the API it sits under: Anthropic's
// under /api/v1/messages, OpenAI's under /api/v1/responses, the spec's anywhere else (server/http/error-reply-for-path.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { fundedUser } from '@/test/gateway-harness';

describeEachDatabase('unknown /api/v1 paths: 404 in the shape of the API around them', () => {
  let api: ApiServer;
  let key: string;
  beforeAll(async () => {
    api = await startApiServer();
    key = (await fundedUser(1)).key;
  });
  afterAll(() => api?.close());

  const call = (method: string, path: string) =>
    fetch(`${api.origin}${path}`, { method, headers: { 'x-api-key': key, authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });

  it.each([
    ['POST', '/api/v1/messages/foo'],
    ['POST', '/api/v1/messages/count_tokens/extra'],
    ['GET', '/api/v1/messages/batches'],
  ])("%s %s: Anthropic's not_found_error", async (method, path) => {
    const res = await call(method, path);
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);
    const body = await res.json();
    expect(body).toEqual({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining(`No endpoint ${method} ${path}`) }, request_id: requestId });
  });

  it.each([
    ['POST', '/api/v1/responses/resp_123/cancel'],
    ['GET', '/api/v1/responses/resp_123/output_items'],
  ])("%s %s: OpenAI's error shape", async (method, path) => {
    const res = await call(method, path);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = await res.json();
    expect(body).toEqual({ error: { type: 'invalid_request_error', code: 'not_found', param: null, message: expect.stringContaining(`No endpoint ${method} ${path}`) } });
  });

  it("anywhere else (and a path that only starts like one of them): the spec's shape", async () => {
    for (const path of ['/api/v1/no-such-endpoint', '/api/v1/messagesfoo', '/api/v1/responsesx/1']) {
      const res = await call('POST', path);
      expect(res.status).toBe(404);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: 404, metadata: { error_type: 'not_found', request_id: res.headers.get('x-request-id') } });
    }
  });
});
