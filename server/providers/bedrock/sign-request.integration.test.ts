// SigV4 as AWS checks it: the fake Bedrock recomputes each signature with AWS's signer (test/fake-bedrock.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBedrock, type FakeBedrock } from '@/test/fake-bedrock';
import { createSigner, signRequest } from './sign-request';

describe('signRequest against the fake Bedrock', () => {
  let bedrock: FakeBedrock;
  beforeAll(async () => {
    bedrock = await startFakeBedrock({ credentials: { AKIDEXAMPLE: { secret: 'secret-1' } }, region: 'us-east-1', respond: () => ({ json: { output: { message: { content: [] } } } }) });
  });
  afterAll(() => bedrock?.close());

  const request = () => ({ url: `${bedrock.url}/model/${encodeURIComponent('meta.llama3-70b-instruct-v1:0')}/converse`, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' });
  const send = (r: { url: string; headers: Record<string, string>; body: string }) => fetch(r.url, { method: 'POST', headers: r.headers, body: r.body });

  it('accepts a fresh signature; refuses a tampered body, a wrong secret and a signature older than 15 minutes', async () => {
    const signer = createSigner('us-east-1', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-1' });
    expect((await send(await signRequest(signer, request()))).status).toBe(200);
    expect(bedrock.requests.at(-1)!.modelId).toBe('meta.llama3-70b-instruct-v1:0');

    const tampered = { ...(await signRequest(signer, request())), body: '{"messages":[1]}' };
    const refusedTampered = await send(tampered);
    expect(refusedTampered.status).toBe(400);
    expect(refusedTampered.headers.get('x-amzn-errortype')).toMatch(/^XAmzContentSHA256Mismatch/);
    // The same tampering with the hash header dropped: the signature itself no longer matches.
    const { 'x-amz-content-sha256': _hash, ...unhashed } = tampered.headers;
    const refusedSignature = await send({ ...tampered, headers: unhashed });
    expect(refusedSignature.status).toBe(403);
    expect(refusedSignature.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException/);

    const wrong = createSigner('us-east-1', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-2' });
    expect((await send(await signRequest(wrong, request()))).status).toBe(403);

    const stale = await send(await signRequest(signer, request(), new Date(Date.now() - 20 * 60_000)));
    expect(stale.status).toBe(403);
    expect((await stale.json()).message).toMatch(/Signature expired/);
    expect(bedrock.requests).toHaveLength(1);
  });

  it('refuses a signature scoped to another region, and one that leaves host unsigned', async () => {
    const elsewhere = createSigner('eu-west-1', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-1' });
    const misplaced = await send(await signRequest(elsewhere, request()));
    expect(misplaced.status).toBe(403);
    expect((await misplaced.json()).message).toMatch(/scoped to a valid region/);

    const signed = await signRequest(createSigner('us-east-1', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-1' }), request());
    const withoutHost = { ...signed, headers: { ...signed.headers, authorization: signed.headers.authorization!.replace(/SignedHeaders=([^,]+)/, (_, list: string) => `SignedHeaders=${list.split(';').filter((h) => h !== 'host').join(';')}`) } };
    const unsignedHost = await send(withoutHost);
    expect(unsignedHost.status).toBe(403);
    expect(unsignedHost.headers.get('x-amzn-errortype')).toMatch(/^IncompleteSignatureException/);
  });
});
