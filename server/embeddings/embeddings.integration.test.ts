// POST /api/v1/embeddings end to end: the official OpenAI SDK (`client.embeddings.create`, float and its
// default base64, `dimensions`) through the node:http fast path, against fake upstreams answering in each
// provider's documented format — OpenAI's `/v1/embeddings` (platform.openai.com/docs/api-reference/embeddings:
// `{object:'list', data:[{object:'embedding', index, embedding}], model, usage:{prompt_tokens, total_tokens}}`,
// base64 being little-endian float32) and Gemini's `models/{m}:batchEmbedContents` (ai.google.dev/api/embeddings:
// `{embeddings:[{values}]}`, no token count). Charges, usage records, refusals and failover between keys.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { usdToMicros } from '@/server/ledger/money';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller } from '@/test/factories';
import { startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { handleEmbeddingsRequest } from './embeddings-transports';

/** Exactly representable in float32, so base64 round trips compare equal. */
const vector = (i: number, n: number) => Array.from({ length: n }, (_, j) => (j % 2 ? -1 : 1) * (i + 1) * 0.125 * (j + 1));
const base64Of = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString('base64');

/** OpenAI's answer to the request it got (ids, order and encoding as asked). */
function openaiAnswer(req: { body: unknown }, promptTokens: number, dims = 4): FakeResponse {
  const body = req.body as { input: unknown[]; model: string; encoding_format?: string; dimensions?: number };
  const n = body.dimensions ?? dims;
  return {
    status: 200,
    json: {
      object: 'list',
      data: body.input.map((_, i) => ({ object: 'embedding', index: i, embedding: body.encoding_format === 'base64' ? base64Of(vector(i, n)) : vector(i, n) })),
      model: body.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
  };
}

function geminiAnswer(req: { body: unknown }): FakeResponse {
  const body = req.body as { requests: { outputDimensionality?: number }[] };
  return { status: 200, json: { embeddings: body.requests.map((r, i) => ({ values: vector(i, r.outputDimensionality ?? 6) })) } };
}

const LONG_A = 'a'.repeat(1200);
const LONG_B = 'b'.repeat(1200);

describeEachDatabase('POST /api/v1/embeddings', () => {
  let h: GatewayHarness;
  let api: ApiServer;
  let pool: FakeUpstream;
  let poolBehaviour: (req: RecordedRequest) => FakeResponse;
  let user: Awaited<ReturnType<typeof fundedUser>>;
  let client: OpenAI;

  const config = (): RoutingFileInput => ({
    providers: [{ id: 'pool', type: 'openai-compatible', base_url: `${pool.url}/v1`, keys: [{ key: 'sk-pool-1', id: 'first' }, { key: 'sk-pool-2', id: 'second' }] }],
    models: [
      {
        id: 'test/embed', name: 'Pool embeddings', kind: 'embedding', context_length: 8192, max_output_tokens: 1,
        endpoints: [{ provider: 'pool', upstream_model: 'bge-small', pricing: { input: 0.5, output: 0 } }],
      },
    ],
  });

  beforeAll(async () => {
    pool = await startFakeUpstream((req) => poolBehaviour(req));
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    api = await startApiServer();
    user = await fundedUser(10);
    client = new OpenAI({ apiKey: user.key, baseURL: h.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
    await pool?.close();
  });
  beforeEach(() => {
    h.respond = (req) => (req.path.includes(':batchEmbedContents') ? geminiAnswer(req) : openaiAnswer(req, 600));
    poolBehaviour = (req) => openaiAnswer(req, 100);
  });

  const post = (body: unknown, key = user.key, path = '/embeddings') =>
    fetch(`${h.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** After settlement: one ledger entry of exactly usage.cost (none for 0), the reservation settled to it. */
  async function expectCharged(id: string, cost: number) {
    await h.runtime.settlements.drain();
    const prisma = await db();
    const charged = usdToMicros(cost);
    const entries = charged === 0n ? [] : [{ amountMicros: -charged }]; // nothing to charge: no ledger entry
    expect(await prisma.ledgerEntry.findMany({ where: { generationId: id }, select: { amountMicros: true } })).toEqual(entries);
    expect(await prisma.reservation.findUnique({ where: { generationId: id }, select: { status: true, settledMicros: true } })).toEqual({ status: 'SETTLED', settledMicros: charged });
    return prisma.usageRecord.findUniqueOrThrow({ where: { id } });
  }

  it('OpenAI, floats with dimensions: the upstream gets OpenAI’s request, the client the vectors, billed 600 input tokens at $0.02/M', async () => {
    const before = (await getBalanceOrThrow(user.user.personal_account_id)).totalMicros;
    const res = await client.embeddings.create({ model: 'openai/text-embedding-3-small', input: [LONG_A, LONG_B], dimensions: 4, encoding_format: 'float', user: 'end-user-1' });
    const sent = h.upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/embeddings');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-openai-SECRET');
    expect(sent.body).toEqual({ model: 'text-embedding-3-small', input: [LONG_A, LONG_B], encoding_format: 'float', dimensions: 4, user: 'end-user-1' });
    expect(res.object).toBe('list');
    expect(res.data.map((d) => [d.object, d.index, d.embedding])).toEqual([['embedding', 0, vector(0, 4)], ['embedding', 1, vector(1, 4)]]);
    expect(res.model).toBe('openai/text-embedding-3-small');
    const body = res as unknown as { provider: string; id: string; usage: { prompt_tokens: number; total_tokens: number; cost: number } };
    expect(body.provider).toBe('openai');
    expect(body.usage).toEqual({ prompt_tokens: 600, total_tokens: 600, cost: 0.000012 }); // 600 × 20,000 µ$/M = 12 µ$
    const record = await expectCharged(body.id, body.usage.cost);
    expect(record).toMatchObject({ model: 'openai/text-embedding-3-small', provider: 'openai', upstreamModel: 'text-embedding-3-small', promptTokens: 600, completionTokens: 0, status: 'SUCCESS', streamed: false, costMicros: 12n });
    expect((await getBalanceOrThrow(user.user.personal_account_id)).totalMicros).toBe(before - 12n);

    // The generation lookup knows it (served by the Next route handler, another runtime, the same database).
    const generation = (await (await fetch(`${api.origin}/api/v1/generation?id=${body.id}`, { headers: { authorization: `Bearer ${user.key}` } })).json()).data;
    expect(generation).toMatchObject({ id: body.id, model: 'openai/text-embedding-3-small', tokens_prompt: 600, tokens_completion: 0, total_cost: 0.000012, streamed: false, status: 'success' });
  });

  it('OpenAI, the SDK’s default base64: passed through to OpenAI and decoded by the SDK to the same floats', async () => {
    const res = await client.embeddings.create({ model: 'openai/text-embedding-3-large', input: 'hello world' });
    expect((h.upstream.requests.at(-1)!.body as { encoding_format: string }).encoding_format).toBe('base64');
    expect(res.data[0]!.embedding).toEqual(vector(0, 4));
    // Reserved for 'hello world' (11 bytes → 4 tokens at worst): the upstream's 600 are capped there, the rest unbilled.
    const body = res as unknown as { id: string; usage: { prompt_tokens: number; cost: number } };
    const record = await expectCharged(body.id, body.usage.cost);
    expect(record.costMicros).toBe(1n); // 4 × 130,000 µ$/M, rounded up
    expect(record.unbilledMicros).toBe(78n - 1n);
  });

  it('Gemini: batchEmbedContents with outputDimensionality; base64 encoded by the gateway; tokens estimated (Gemini reports none)', async () => {
    const raw = await post({ model: 'google/gemini-embedding-001', input: [LONG_A, LONG_B], dimensions: 3, encoding_format: 'base64' });
    expect(raw.status).toBe(200);
    const sent = h.upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(sent.headers['x-goog-api-key']).toBe('gemini-upstream-SECRET');
    expect(sent.body).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: LONG_A }] }, outputDimensionality: 3 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: LONG_B }] }, outputDimensionality: 3 },
      ],
    });
    const body = await raw.json();
    expect(raw.headers.get('x-generation-id')).toBe(body.id);
    expect(body.data.map((d: { embedding: string }) => d.embedding)).toEqual([base64Of(vector(0, 3)), base64Of(vector(1, 3))]);
    // 2 × 1200 bytes at 4 bytes a token = 600 tokens × 150,000 µ$/M = 90 µ$.
    expect(body.usage).toEqual({ prompt_tokens: 600, total_tokens: 600, cost: 0.00009 });
    expect(body.provider).toBe('gemini');
    await expectCharged(body.id, body.usage.cost);

    const sdk = await client.embeddings.create({ model: 'google/gemini-embedding-001', input: 'one' });
    expect(sdk.data[0]!.embedding).toEqual(vector(0, 6));
  });

  it('token arrays: passed to OpenAI as they are (reserved exactly), refused for Gemini', async () => {
    const ok = await post({ model: 'openai/text-embedding-3-small', input: [[1, 2, 3], [4, 5]], encoding_format: 'float' });
    expect(ok.status).toBe(200);
    expect((h.upstream.requests.at(-1)!.body as { input: unknown }).input).toEqual([[1, 2, 3], [4, 5]]);
    const gemini = await post({ model: 'google/gemini-embedding-001', input: [1, 2, 3] });
    expect(gemini.status).toBe(400);
    expect((await gemini.json()).error.message).toContain('token arrays');
  });

  it('400 in the spec’s error body: empty input, wrong model kind either way; nothing reserved, nothing sent', async () => {
    // Earlier tests' settlements are written after their responses: let them land before counting reservations.
    await h.runtime.settlements.flush();
    const sentBefore = h.upstream.requests.length;
    for (const input of ['', [], ['ok', '']]) {
      const res = await post({ model: 'openai/text-embedding-3-small', input });
      expect(res.status, JSON.stringify(input)).toBe(400);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: 400, metadata: { error_type: 'bad_request', param: 'input' } });
      expect(body.error.message).toContain('may not be empty');
    }
    const chatModel = await post({ model: 'openai/gpt-4o-mini', input: 'hi' });
    expect(chatModel.status).toBe(400);
    expect((await chatModel.json()).error.message).toContain('openai/gpt-4o-mini is a chat model');
    const chatToEmbedding = await post({ model: 'openai/text-embedding-3-small', messages: [{ role: 'user', content: 'hi' }], stream: false }, user.key, '/chat/completions');
    expect(chatToEmbedding.status).toBe(400);
    expect((await chatToEmbedding.json()).error.message).toContain('is an embedding model; send it to POST /api/v1/embeddings');
    expect(h.upstream.requests.length).toBe(sentBefore);
    expect(await (await db()).reservation.count({ where: { accountId: user.user.personal_account_id, status: 'ACTIVE' } })).toBe(0);
  });

  it('a key limited to other models gets 403, and no key 401', async () => {
    const { key } = await createApiKey({ userId: user.user.id, input: { name: 'chat only', allowed_models: ['openai/gpt-4o-mini'] } });
    const res = await post({ model: 'openai/text-embedding-3-small', input: 'hi' }, key);
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toContain('may not use openai/text-embedding-3-small');
    const anonymous = await fetch(`${h.baseUrl}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: 'hi' }) });
    expect(anonymous.status).toBe(401);
  });

  it('failover: a 429 from the first key of an OpenAI-compatible provider, the second key serves (asked for floats, encoded here)', async () => {
    // Whichever key is drawn first (by weight, at random) is rate limited; the other one serves.
    let limited: string | undefined;
    poolBehaviour = (req) => {
      limited ??= req.headers.authorization;
      return req.headers.authorization === limited ? { status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after': '30' } } : openaiAnswer(req, 100);
    };
    const res = await client.embeddings.create({ model: 'test/embed', input: [LONG_A] });
    expect(res.data[0]!.embedding).toEqual(vector(0, 4));
    const keysTried = pool.requests.map((r) => r.headers.authorization);
    expect([...keysTried].sort()).toEqual(['Bearer sk-pool-1', 'Bearer sk-pool-2']);
    expect((pool.requests.at(-1)!.body as { encoding_format: string }).encoding_format).toBe('float');
    const body = res as unknown as { id: string; usage: { cost: number } };
    expect(body.usage.cost).toBe(0.00005); // 100 × 500,000 µ$/M
    const record = await expectCharged(body.id, body.usage.cost);
    expect(record).toMatchObject({ provider: 'pool', providerKey: keysTried[1] === 'Bearer sk-pool-1' ? 'first' : 'second', attempts: 2 });
  });

  it('an upstream error before any vector: the client gets it, nothing is charged, the usage record says ERROR', async () => {
    h.respond = () => ({ status: 400, json: { error: { message: "This model does not support specifying dimensions.", type: 'invalid_request_error', param: 'dimensions', code: null } } });
    const res = await post({ model: 'openai/text-embedding-3-small', input: 'hi', dimensions: 2 });
    expect(res.status).toBe(400);
    const id = res.headers.get('x-generation-id')!;
    expect((await res.json()).error.message).toContain('does not support specifying dimensions');
    const record = await expectCharged(id, 0);
    expect(record).toMatchObject({ status: 'ERROR', costMicros: 0n, promptTokens: 0 });
  });

  it('refusals after the key is known (404 unknown model, 402 no credit) are recorded as the chat path’s: listed with include_refused=true', async () => {
    const call = apiCaller(() => api.origin);
    const u = await fundedUser(10);
    const poor = await fundedUser(0);
    const unknown = await post({ model: 'nobody/no-such-embedder', input: 'hi' }, u.key);
    expect(unknown.status).toBe(404);
    const broke = await post({ model: 'openai/text-embedding-3-small', input: 'hi' }, poor.key);
    expect(broke.status).toBe(402);
    await h.runtime.settlements.flush();

    const refused = async (key: string) => {
      const res = await call('GET', '/users/me/usages?include_refused=true', key);
      expect(res.status).toBe(200);
      return (await res.json()).data as { status: string; http_status: number; model: string; cost: number; error: { code: string } | null }[];
    };
    expect((await refused(u.key)).map((r) => [r.status, r.http_status, r.model, r.cost, r.error?.code])).toEqual([['refused', 404, 'nobody/no-such-embedder', 0, 'not_found']]);
    expect((await refused(poor.key)).map((r) => [r.status, r.http_status, r.model, r.cost, r.error?.code])).toEqual([['refused', 402, 'openai/text-embedding-3-small', 0, 'payment_required']]);
    const prisma = await db();
    expect(await prisma.usageRecord.findFirstOrThrow({ where: { accountId: poor.user.personal_account_id } })).toMatchObject({
      status: 'REFUSED', httpStatus: 402, errorCode: 'payment_required', provider: 'openai', streamed: false, costMicros: 0n,
      userId: poor.user.id, apiKeyId: poor.apiKey.id, requestId: broke.headers.get('x-request-id'),
    });
    expect(await prisma.usageRecord.findFirstOrThrow({ where: { accountId: u.user.personal_account_id } })).toMatchObject({
      status: 'REFUSED', httpStatus: 404, apiKeyId: u.apiKey.id, requestId: unknown.headers.get('x-request-id'),
    });
  });

  it('a key’s own rate limits hold on /embeddings: over rate_limit_rpm a 429, the one that reached admission settled as REFUSED at no charge', async () => {
    const u = await fundedUser(10);
    const { key } = await createApiKey({ userId: u.user.id, input: { name: 'one a minute', rate_limit_rpm: 1 } });
    const ok = await post({ model: 'openai/text-embedding-3-small', input: 'hi' }, key);
    expect(ok.status).toBe(200);
    // The second reaches admission (the limit learned from the first is re-read there), the third is refused from memory.
    const second = await post({ model: 'openai/text-embedding-3-small', input: 'hi' }, key);
    const third = await post({ model: 'openai/text-embedding-3-small', input: 'hi' }, key);
    for (const res of [second, third]) {
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await res.json()).error.message).toContain('1 requests per minute');
    }
    const reachedAdmission = second.headers.get('x-generation-id');
    expect(reachedAdmission).toBeTruthy();
    await expectCharged(reachedAdmission!, 0);
    await h.runtime.settlements.flush();
    const prisma = await db();
    const records = await prisma.usageRecord.findMany({ where: { accountId: u.user.personal_account_id }, select: { status: true, httpStatus: true, errorCode: true, costMicros: true } });
    expect(records.sort((x, y) => y.status.localeCompare(x.status))).toEqual([
      { status: 'SUCCESS', httpStatus: 200, errorCode: null, costMicros: expect.any(BigInt) },
      { status: 'REFUSED', httpStatus: 429, errorCode: 'rate_limited', costMicros: 0n },
      { status: 'REFUSED', httpStatus: 429, errorCode: 'rate_limited', costMicros: 0n },
    ]);
  });

  it('a key’s rate_limit_tpm counts its embedding input tokens', async () => {
    const u = await fundedUser(10);
    const { key } = await createApiKey({ userId: u.user.id, input: { name: 'few tokens', rate_limit_tpm: 500 } });
    expect((await post({ model: 'openai/text-embedding-3-small', input: 'hi' }, key)).status).toBe(200); // 600 tokens (the fake's count)
    const over = await post({ model: 'openai/text-embedding-3-small', input: 'hi' }, key);
    expect(over.status).toBe(429);
    expect((await over.json()).error.message).toContain('500 tokens per minute');
  });

  it('the Next route handler’s transport (WHATWG Request) serves the same answer', async () => {
    const response = await handleEmbeddingsRequest(
      h.runtime,
      new Request('http://localhost/api/v1/embeddings', { method: 'POST', headers: { 'x-api-key': user.key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: 'hi', encoding_format: 'float' }) }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).data[0].embedding).toEqual(vector(0, 4));
  });

  it('GET /api/v1/models lists embedding models with kind and output modality "embeddings"; chat models keep theirs', async () => {
    const { data } = await (await fetch(`${api.origin}/api/v1/models`)).json();
    const embedding = data.find((m: { id: string }) => m.id === 'openai/text-embedding-3-small');
    expect(embedding).toMatchObject({ kind: 'embedding', architecture: { output_modalities: ['embeddings'] }, pricing: { prompt: '0.00000002', completion: '0' } });
    expect(data.find((m: { id: string }) => m.id === 'openai/gpt-4o-mini')).toMatchObject({ kind: 'chat', architecture: { output_modalities: ['text'] } });
  });
});
