// `type: bedrock` through the real gateway (node:http harness) against the fake Bedrock of test/fake-bedrock.ts,
// which verifies every SigV4 signature with AWS's signer and streams real event-stream frames. Converse
// bodies and events are written from AWS's API reference (API_runtime_Converse / API_runtime_ConverseStream
// "Response Syntax"). Covers: text, tools, images, documents and reasoning round trips (the signature replayed
// on the next turn), streaming and not; cache points from cache_control; cache usage priced exactly;
// throttling → the next key; a bad signature and a failing Bedrock → an Anthropic endpoint for the same model;
// mid-stream exceptions; validation errors.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { db } from '@/server/db';
import { microsToUsd } from '@/server/ledger/money';
import { RETRY } from '@/server/gateway/upstream-errors';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { startFakeBedrock, type BedrockAnswer, type BedrockRequest, type FakeBedrock, type StreamEvent } from '@/test/fake-bedrock';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const CLAUDE = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA = 'amazon.nova-pro-v1:0';
const PRICES = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
const SIGNATURE = 'EqQBCkYIARgCKkA-bedrock-signature';
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0YK';

const converse = (content: unknown[], stopReason = 'end_turn', usage: object = { inputTokens: 12, outputTokens: 6, totalTokens: 18 }) => ({
  output: { message: { role: 'assistant', content } },
  stopReason,
  usage,
  metrics: { latencyMs: 321 },
});

/** A streamed answer: reasoning (text + signature), then text, then a tool call, as Claude on Bedrock sends them. */
const reasoningToolStream: StreamEvent[] = [
  { event: 'messageStart', payload: { role: 'assistant' } },
  { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'The user wants the weather. ' } } } },
  { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'I will call the tool.' } } } },
  { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { reasoningContent: { signature: SIGNATURE } } } },
  { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
  { event: 'contentBlockDelta', payload: { contentBlockIndex: 1, delta: { text: 'Let me check.' } } },
  { event: 'contentBlockStop', payload: { contentBlockIndex: 1 } },
  { event: 'contentBlockStart', payload: { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_abc123', name: 'get_weather' } } } },
  { event: 'contentBlockDelta', payload: { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } } } },
  { event: 'contentBlockDelta', payload: { contentBlockIndex: 2, delta: { toolUse: { input: '"Paris"}' } } } },
  { event: 'contentBlockStop', payload: { contentBlockIndex: 2 } },
  { event: 'messageStop', payload: { stopReason: 'tool_use' } },
  { event: 'metadata', payload: { usage: { inputTokens: 40, outputTokens: 30, totalTokens: 70 }, metrics: { latencyMs: 500 } } },
];

const weatherTool = { type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

describeEachDatabase('provider type bedrock (Converse, SigV4, event stream)', () => {
  let h: GatewayHarness;
  let key: string;
  let bedrock: FakeBedrock;
  let anthropic: FakeUpstream;
  let answer: (req: BedrockRequest) => BedrockAnswer;

  const config = (): RoutingFileInput => {
    const iam = { type: 'bedrock' as const, base_url: bedrock.url, region: 'us-west-2', access_key_id_env: 'BEDROCK_TEST_KEY_ID', secret_access_key_env: 'BEDROCK_TEST_SECRET', session_token_env: 'BEDROCK_TEST_TOKEN' };
    const model = (id: string, providers: string[], extra: object = {}) => ({
      id,
      name: id,
      context_length: 200_000,
      max_output_tokens: 4_000,
      supports_reasoning: true,
      supports_images: true,
      supports_pdf: true,
      endpoints: providers.map((provider) => ({ provider, upstream_model: provider === 'anthropic' ? 'claude-sonnet-4-5' : CLAUDE, pricing: PRICES })),
      ...extra,
    });
    return {
      providers: [
        { id: 'bedrock', ...iam },
        // Same credentials but the wrong secret: every signature it makes is refused.
        { id: 'bedrock-forged', ...iam, secret_access_key_env: 'BEDROCK_TEST_WRONG_SECRET' },
        { id: 'bedrock-keys', type: 'bedrock', base_url: bedrock.url, region: 'us-west-2', keys: [{ key: 'bedrock-api-key-1', id: 'first', weight: 1_000 }, { key: 'bedrock-api-key-2', id: 'second' }] },
        { id: 'anthropic', type: 'anthropic', base_url: anthropic.url, keys: [{ key: 'sk-ant-test' }] },
      ],
      models: [
        model('test/claude', ['bedrock']),
        model('test/claude-keys', ['bedrock-keys']),
        model('test/claude-failover', ['bedrock', 'anthropic']),
        model('test/claude-forged', ['bedrock-forged', 'anthropic']),
        { id: 'test/nova-keys', name: 'Nova on the keys', context_length: 300_000, max_output_tokens: 5_000, endpoints: [{ provider: 'bedrock-keys', upstream_model: NOVA, pricing: { input: 0.8, output: 3.2 } }] },
      ],
    };
  };

  beforeAll(async () => {
    RETRY.baseDelayMs = 5;
    process.env.BEDROCK_TEST_KEY_ID = 'AKIAFAKEBEDROCK00001';
    process.env.BEDROCK_TEST_SECRET = 'fake/Secret+Key/ForSigning0000000000000';
    process.env.BEDROCK_TEST_WRONG_SECRET = 'not-the-secret';
    process.env.BEDROCK_TEST_TOKEN = 'FwoGZXIvYXdzEFAKESESSIONTOKEN';
    bedrock = await startFakeBedrock({
      credentials: { AKIAFAKEBEDROCK00001: { secret: process.env.BEDROCK_TEST_SECRET, sessionToken: process.env.BEDROCK_TEST_TOKEN } },
      apiKeys: ['bedrock-api-key-1', 'bedrock-api-key-2'],
      region: 'us-west-2',
      respond: (req) => answer(req),
    });
    anthropic = await startFakeUpstream((req) =>
      (req.body as { stream?: boolean }).stream
        ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('anthropic', 'text.chunks.txt') }
        : { status: 200, json: JSON.parse(readFixture('anthropic', 'text.json')) },
    );
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(50)).key;
  });
  afterAll(async () => {
    await h?.close();
    await bedrock?.close();
    await anthropic?.close();
  });
  beforeEach(async () => {
    answer = () => ({ json: converse([{ text: 'Hello from Bedrock.' }]) });
    bedrock.requests.length = 0;
    bedrock.refused.length = 0;
    anthropic.requests.length = 0;
    await h.renewRuntime({ routing: { config: config(), database: false } }); // fresh key health
  });

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'test/claude', messages: [{ role: 'user', content: 'hi' }], stream: false, ...body }),
    });

  it('text, non-streaming: a SigV4-signed Converse request (session token, region, encoded model id) and the answer', async () => {
    const res = await post({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], temperature: 0.5, max_tokens: 100, stop: ['END'] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.choices[0].message.content).toBe('Hello from Bedrock.');
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 6 });
    expect(bedrock.refused).toEqual([]);
    const [sent] = bedrock.requests;
    expect(sent!.auth).toEqual({ kind: 'sigv4', accessKeyId: 'AKIAFAKEBEDROCK00001', region: 'us-west-2' });
    expect(sent!.modelId).toBe(CLAUDE);
    expect(sent!.stream).toBe(false);
    expect(sent!.body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      inferenceConfig: { maxTokens: 100, temperature: 0.5, stopSequences: ['END'] },
    });
  });

  it('streaming: reasoning with its signature, text and a tool call; the signature and tool result go back on the next turn', async () => {
    answer = () => ({ events: reasoningToolStream });
    const res = await post({ stream: true, tools: [weatherTool], reasoning: { max_tokens: 2048 }, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(res.status).toBe(200);
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    const deltas = chunks.map((c) => c.choices?.[0]?.delta ?? {});
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('Let me check.');
    expect(deltas.map((d) => d.reasoning ?? '').join('')).toBe('The user wants the weather. I will call the tool.');
    const details = deltas.flatMap((d) => d.reasoning_details ?? []);
    expect(details.every((d: { format: string; index: number }) => d.format === 'bedrock-anthropic-v1' && d.index === 0)).toBe(true);
    expect(details.find((d: { signature?: string }) => d.signature)?.signature).toBe(SIGNATURE);
    const calls = deltas.flatMap((d) => d.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: 'tooluse_abc123', function: { name: 'get_weather' } });
    expect(calls.map((c: { function: { arguments?: string } }) => c.function.arguments ?? '').join('')).toBe('{"city":"Paris"}');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 30 });
    const first = bedrock.requests[0]!;
    expect(first.stream).toBe(true);
    expect(first.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(first.body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(first.body.toolConfig.tools[0].toolSpec).toEqual({ name: 'get_weather', description: 'Weather by city', inputSchema: { json: weatherTool.function.parameters } });

    // Next turn: the client replays what it got, fragments as streamed (joined by index), plus the tool's result.
    answer = () => ({ json: converse([{ text: 'Sunny, 21 °C.' }]) });
    const next = await post({
      tools: [weatherTool],
      reasoning: { max_tokens: 2048 },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: 'Let me check.', reasoning_details: details, tool_calls: [{ id: 'tooluse_abc123', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'tooluse_abc123', content: '{"temperature":21,"sky":"sunny"}' },
      ],
    });
    expect(next.status).toBe(200);
    expect((await next.json()).choices[0].message.content).toBe('Sunny, 21 °C.');
    const replayed = bedrock.requests[1]!.body.messages;
    expect(replayed[1]).toEqual({
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'The user wants the weather. I will call the tool.', signature: SIGNATURE } } },
        { text: 'Let me check.' },
        { toolUse: { toolUseId: 'tooluse_abc123', name: 'get_weather', input: { city: 'Paris' } } },
      ],
    });
    expect(replayed[2]).toEqual({ role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_abc123', content: [{ json: { temperature: 21, sky: 'sunny' } }] } }] });
    // Thinking stays on: the tool turn kept its signed reasoning.
    expect(bedrock.requests[1]!.body.additionalModelRequestFields).toBeDefined();
  });

  it('non-streaming reasoning, redacted reasoning and a tool call come back as reasoning_details and tool_calls', async () => {
    answer = () => ({
      json: converse(
        [
          { reasoningContent: { reasoningText: { text: 'Thinking.', signature: SIGNATURE } } },
          { reasoningContent: { redactedContent: 'RW5jcnlwdGVk' } },
          { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Oslo' } } },
        ],
        'tool_use',
      ),
    });
    const body = await (await post({ tools: [weatherTool], tool_choice: 'required' })).json();
    const message = body.choices[0].message;
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(message.reasoning).toBe('Thinking.');
    expect(message.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Thinking.', signature: SIGNATURE, format: 'bedrock-anthropic-v1', index: 0 },
      { type: 'reasoning.encrypted', data: 'RW5jcnlwdGVk', format: 'bedrock-anthropic-v1', index: 1 },
    ]);
    expect(message.tool_calls).toEqual([{ id: 'tooluse_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }]);
    // A forced tool: toolChoice any, and no thinking (Claude refuses the two together).
    expect(bedrock.requests[0]!.body.toolConfig.toolChoice).toEqual({ any: {} });
    expect(bedrock.requests[0]!.body.additionalModelRequestFields).toBeUndefined();
  });

  it('images and PDF documents go as bytes; cache_control becomes cache points; cache usage is priced exactly', async () => {
    answer = () => ({ json: converse([{ text: 'A red pixel and an empty PDF.' }], 'end_turn', { inputTokens: 100, outputTokens: 50, totalTokens: 1350, cacheReadInputTokens: 1_000, cacheWriteInputTokens: 200 }) });
    const res = await post({
      tools: [{ ...weatherTool, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Long instructions.', cache_control: { type: 'ephemeral' } }] },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: PNG } },
            { type: 'file', file: { filename: 'report (final).pdf', file_data: PDF }, cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Describe both.' },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const sent = bedrock.requests[0]!.body;
    expect(sent.system).toEqual([{ text: 'Long instructions.' }, { cachePoint: { type: 'default' } }]);
    expect(sent.toolConfig.tools[1]).toEqual({ cachePoint: { type: 'default' } });
    expect(sent.messages[0].content).toEqual([
      { image: { format: 'png', source: { bytes: PNG.split(',')[1] } } },
      { document: { format: 'pdf', name: 'report (final)', source: { bytes: PDF.split(',')[1] } } },
      { cachePoint: { type: 'default' } },
      { text: 'Describe both.' },
    ]);
    // promptTokens includes the cache: 100 + 1,000 read + 200 written.
    expect(body.usage).toMatchObject({ prompt_tokens: 1_300, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 1_000, cache_write_tokens: 200 } });
    // 100 × $3 + 1,000 × $0.30 + 200 × $3.75 + 50 × $15, per million: $0.0021 = 2,100 micro-dollars.
    await h.runtime.settlements.flush();
    const record = await (await db()).usageRecord.findUniqueOrThrow({ where: { id: body.id } });
    expect(record).toMatchObject({ provider: 'bedrock', costMicros: 2_100n, cachedTokens: 1_000, cacheWriteTokens: 200 });
    expect(body.usage.cost).toBe(microsToUsd(2_100n));
  });

  it('a Bedrock API key is sent as Bearer, unsigned; ThrottlingException cools that key and the next key serves', async () => {
    answer = (req) => (req.auth.kind === 'bearer' && req.auth.key === 'bedrock-api-key-1' ? { status: 429, errorType: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' } : { json: converse([{ text: 'ok' }]) });
    // Key 1 weighs 1,000 times key 2: it is (all but surely) tried first, and after its 429 never again.
    for (let i = 0; i < 5; i++) expect((await post({ model: 'test/claude-keys' })).status).toBe(200);
    const byKey = (k: string) => bedrock.requests.filter((r) => r.auth.kind === 'bearer' && r.auth.key === k).length;
    expect(byKey('bedrock-api-key-1')).toBe(1); // throttled once, then cooling
    expect(byKey('bedrock-api-key-2')).toBe(5);
    expect(bedrock.requests[0]!.headers['x-amz-date']).toBeUndefined();
  });

  it('a failing Bedrock endpoint fails over to the Anthropic endpoint of the same model', async () => {
    answer = () => ({ status: 503, errorType: 'ServiceUnavailableException', message: 'Bedrock is unable to process your request.' });
    const res = await post({ model: 'test/claude-failover' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.provider).toBe('anthropic');
    expect(bedrock.requests.length).toBeGreaterThanOrEqual(1);
    expect(anthropic.requests).toHaveLength(1);
    expect((anthropic.requests[0]!.body as { model: string }).model).toBe('claude-sonnet-4-5');
  });

  it('a model id Bedrock does not serve (ValidationException, HTTP 400) is the endpoint\'s fault: the next endpoint serves', async () => {
    answer = () => ({ status: 400, errorType: 'ValidationException', message: 'The provided model identifier is invalid.' });
    const res = await post({ model: 'test/claude-failover' });
    expect(res.status).toBe(200);
    expect((await res.json()).provider).toBe('anthropic');
    answer = () => ({
      status: 400,
      errorType: 'ValidationException',
      message: `Invocation of model ID ${CLAUDE} with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.`,
    });
    const alone = await post({});
    expect(alone.status).toBe(502);
    expect((await alone.json()).error.message).toContain('does not know this model');
  });

  it('access denied to one model (not granted in the account) does not cool the key: its other models are served', async () => {
    answer = (req) => (req.modelId === CLAUDE ? { status: 403, errorType: 'AccessDeniedException', message: "You don't have access to the model with the specified model ID." } : { json: converse([{ text: 'Nova here.' }]) });
    const denied = await post({ model: 'test/claude-keys' });
    expect(denied.status).toBe(502);
    expect((await denied.json()).error.message).toContain("You don't have access to the model");
    const other = await post({ model: 'test/nova-keys' });
    expect(other.status).toBe(200);
    expect((await other.json()).choices[0].message.content).toBe('Nova here.');
  });

  it('a signature made with the wrong secret is refused 403 as AWS does, and the next endpoint serves', async () => {
    const res = await post({ model: 'test/claude-forged', stream: true });
    expect(res.status).toBe(200);
    const { chunks } = await readSse(res);
    expect(chunks[0].provider).toBe('anthropic');
    expect(bedrock.refused.map((r) => r.errorType)).toContain('InvalidSignatureException');
    expect(bedrock.requests).toHaveLength(0);
  });

  it('an exception mid-stream ends the stream with an error chunk carrying AWS message and code', async () => {
    answer = () => ({
      events: [
        { event: 'messageStart', payload: { role: 'assistant' } },
        { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Partial' } } },
        { event: 'throttlingException', payload: { message: 'Too many tokens, please wait before trying again.' }, exception: true },
      ],
    });
    const { chunks } = await readSse(await post({ stream: true }));
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')).toBe('Partial');
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.error).toMatchObject({ code: 'rate_limit', message: 'Too many tokens, please wait before trying again.' });
  });

  it('a malformed tool use or model output finishes with error, not stop, streamed or not', async () => {
    answer = (req) =>
      req.stream
        ? {
            events: [
              { event: 'messageStart', payload: { role: 'assistant' } },
              { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Calling' } } },
              { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
              { event: 'messageStop', payload: { stopReason: 'malformed_tool_use' } },
              { event: 'metadata', payload: { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, metrics: { latencyMs: 100 } } },
            ],
          }
        : { json: converse([{ text: '{"ci' }], 'malformed_model_output') };
    const body = await (await post({ tools: [weatherTool] })).json();
    expect(body.choices[0].finish_reason).toBe('error');
    const { chunks } = await readSse(await post({ stream: true, tools: [weatherTool] }));
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.error).toMatchObject({ code: 'server_error', message: expect.stringContaining('malformed_tool_use') });
  });

  it('an event type newer than this code is skipped, as AWS SDKs skip unknown members: the answer completes', async () => {
    answer = () => ({
      events: [
        { event: 'messageStart', payload: { role: 'assistant' } },
        { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Still ' } } },
        { event: 'contentBlockAnnotation', payload: { contentBlockIndex: 0, annotation: { kind: 'new' } } },
        { event: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'here.' } } },
        { event: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
        { event: 'messageStop', payload: { stopReason: 'end_turn' } },
        { event: 'metadata', payload: { usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13 }, metrics: { latencyMs: 90 } } },
      ],
    });
    const { chunks, done } = await readSse(await post({ stream: true }));
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')).toBe('Still here.');
    const last = chunks.at(-1);
    expect(last.error).toBeUndefined();
    expect(last.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3 });
  });

  it('ValidationException: 400 to the client; a too-long input is context_length_exceeded', async () => {
    answer = () => ({ status: 400, errorType: 'ValidationException', message: 'Input is too long for requested model.' });
    const res = await post({});
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'context_length_exceeded', message: expect.stringContaining('Input is too long for requested model.') });
    answer = () => ({ status: 400, errorType: 'ValidationException', message: 'The model returned the following errors: temperature: range: 0..1' });
    const bad = await post({});
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('temperature');
  });
});

