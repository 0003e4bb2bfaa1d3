import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConvertContext } from '../types';
import { azureChatUrl } from './azure-chat-url';
import { buildAzureOpenAIAdapter } from './build-azure-openai-adapter';
import { convertAzureError } from './convert-error';
import { createEntraTokenSource } from './entra-token-source';

const ctx = (apiKey?: string): ConvertContext => ({
  model: { id: 'az/m', provider: 'az', upstreamModel: 'my-deploy', contextLength: 1000, maxOutputTokens: 100, supportsReasoning: false, supportsImages: false },
  config: { baseUrl: 'https://contoso.openai.azure.com/', apiKey },
});

describe('azureChatUrl', () => {
  it('dated API with api-version; v1 when base ends in /openai/v1 or no version (or "v1") is given', () => {
    expect(azureChatUrl('https://r.openai.azure.com/', 'gpt 4o', '2024-10-21')).toBe('https://r.openai.azure.com/openai/deployments/gpt%204o/chat/completions?api-version=2024-10-21');
    expect(azureChatUrl('https://r.openai.azure.com/openai/v1/', 'd', '2024-10-21')).toBe('https://r.openai.azure.com/openai/v1/chat/completions');
    expect(azureChatUrl('https://r.openai.azure.com', 'd', undefined)).toBe('https://r.openai.azure.com/openai/v1/chat/completions');
    expect(azureChatUrl('https://r.openai.azure.com', 'd', 'v1')).toBe('https://r.openai.azure.com/openai/v1/chat/completions');
  });
});

describe('azure-openai adapter', () => {
  it('api-key header instead of a bearer, deployment as model', () => {
    const { adapter, credentials } = buildAzureOpenAIAdapter({ id: 'az', api_version: '2025-04-01-preview' }, () => undefined);
    expect(credentials).toBeUndefined(); // keys decide
    const up = adapter.convertRequest({ model: 'az/m', messages: [{ role: 'user', content: 'hi' }] } as never, ctx('k1'));
    expect(up.headers).toEqual({ 'content-type': 'application/json', 'api-key': 'k1' });
    expect(up.url).toContain('/openai/deployments/my-deploy/chat/completions?api-version=2025-04-01-preview');
    expect(JSON.parse(up.body).model).toBe('my-deploy');
    expect(adapter.authorize).toBeUndefined();
  });

  it('Entra fields: incomplete ones name what is missing; complete ones make it configured with authorize', () => {
    expect(buildAzureOpenAIAdapter({ id: 'az', tenant_id: 't', client_id: 'c', client_secret_env: 'AZ_SECRET' }, () => undefined).credentials).toEqual({ configured: false, missing: 'AZ_SECRET' });
    expect(buildAzureOpenAIAdapter({ id: 'az', client_secret_env: 'AZ_SECRET' }, () => 's').credentials?.missing).toBe('client_id for provider "az" and tenant_id (or token_url) for provider "az"');
    const built = buildAzureOpenAIAdapter({ id: 'az', tenant_id: 't', client_id: 'c', client_secret_env: 'AZ_SECRET' }, () => 's');
    expect(built.credentials).toEqual({ configured: true });
    expect(built.adapter.authorize).toBeTypeOf('function');
    expect(built.adapter.convertRequest({ model: 'az/m', messages: [{ role: 'user', content: 'hi' }] } as never, ctx('k1')).headers['api-key']).toBeUndefined();
  });

  it('content_filter 400 → bad_request with reason; other errors as OpenAI', () => {
    const filtered = convertAzureError(400, JSON.stringify({ error: { code: 'content_filter', message: 'The response was filtered', param: 'prompt', status: 400 } }), { 'apim-request-id': 'req-9' });
    expect(filtered).toMatchObject({ kind: 'bad_request', reason: 'content_filter', upstreamRequestId: 'req-9' });
    expect(convertAzureError(404, JSON.stringify({ error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' } }), {}).kind).toBe('not_found');
    expect(convertAzureError(400, JSON.stringify({ error: { code: 'invalid_value', message: 'bad' } }), {}).reason).toBeUndefined();
  });
});

describe('Entra token source', () => {
  let url = '';
  let requests = 0;
  let status = 200;
  let release: (() => void) | null = null;
  const server = createServer((req, res) => {
    requests++;
    const n = requests;
    const answer = () => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(status === 200 ? { token_type: 'Bearer', expires_in: 3600, access_token: `tok-${n}` } : { error: 'invalid_client', error_description: 'AADSTS7000215 trace id …' }));
    if (release === null) answer();
    else new Promise<void>((r) => (release = r)).then(answer);
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/t/oauth2/v2.0/token`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('caches the token, refreshes in its last 5 minutes without making callers wait, and after expiry', async () => {
    let now = 1_000_000;
    requests = 0;
    const source = createEntraTokenSource({ provider: 'az', tokenUrl: url, clientId: 'c', clientSecret: 's', now: () => now });
    const signal = new AbortController().signal;
    expect(await source.token(signal)).toBe('tok-1');
    now += 54 * 60_000;
    expect(await source.token(signal)).toBe('tok-1');
    expect(requests).toBe(1);
    now += 2 * 60_000; // 4 minutes left: a background refresh starts, this caller keeps tok-1
    expect(await source.token(signal)).toBe('tok-1');
    await expect.poll(() => requests).toBe(2);
    await expect.poll(() => source.token(signal)).toBe('tok-2');
  });

  it('concurrent callers with no token share one request', async () => {
    requests = 0;
    release = () => undefined; // hold answers until released
    const source = createEntraTokenSource({ provider: 'az', tokenUrl: url, clientId: 'c', clientSecret: 's' });
    const signal = new AbortController().signal;
    const waiting = Promise.all(Array.from({ length: 5 }, () => source.token(signal)));
    await expect.poll(() => requests).toBe(1);
    const go = release as unknown as () => void;
    release = null;
    go();
    expect(new Set(await waiting)).toEqual(new Set(['tok-1']));
    expect(requests).toBe(1);
  });

  it('a refused secret is a service_unavailable AppError naming only Entra’s error code', async () => {
    status = 401;
    const source = createEntraTokenSource({ provider: 'az', tokenUrl: url, clientId: 'c', clientSecret: 'wrong' });
    const err = await source.token(new AbortController().signal).catch((e: unknown) => e);
    status = 200;
    expect(err).toMatchObject({ code: 'service_unavailable' });
    expect((err as Error).message).toContain('invalid_client');
    expect((err as Error).message).not.toContain('AADSTS');
  });
});
