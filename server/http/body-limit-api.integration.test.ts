// Route handlers read request bodies with a limit, counted while reading (readRequestText): an oversized
// body is a 413 with the spec's body wherever the handler runs (next dev, serverless, the production server,
// which also refuses it before Next: e2e/api/fuzz.spec.ts). Before, a 2 MB body was buffered and accepted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { fundedUser } from '@/test/gateway-harness';
import { NEXT_BODY_LIMIT_BYTES } from './request-limits';

describeEachDatabase('request bodies over the limit', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  it('413 with the spec body for a REST body and a webhook body over the limit', async () => {
    const u = await fundedUser(0);
    const big = JSON.stringify({ name: 'big', note: 'a'.repeat(NEXT_BODY_LIMIT_BYTES) });
    for (const path of ['/api/v1/api-keys', '/api/webhooks/stripe']) {
      const res = await fetch(`${api.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, body: big });
      expect(res.status, path).toBe(413);
      expect((await res.json()).error).toMatchObject({ code: 413, message: expect.stringMatching(/limit of 1 MiB/), metadata: { error_type: 'payload_too_large', limit_bytes: NEXT_BODY_LIMIT_BYTES } });
    }
    // Just under the limit is read as usual.
    const ok = await fetch(`${api.origin}/api/v1/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'fits', note: 'a'.repeat(1000) }) });
    expect(ok.status).toBe(201);
  });

  it('415 with Accept-Encoding: identity for a compressed body, as the production server answers before Next', async () => {
    const u = await fundedUser(0);
    const res = await fetch(`${api.origin}/api/v1/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: JSON.stringify({ name: 'gz' }) });
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-encoding')).toBe('identity');
    expect((await res.json()).error).toMatchObject({ code: 415, message: expect.stringMatching(/Content-Encoding gzip is not supported/) });
  });
});
