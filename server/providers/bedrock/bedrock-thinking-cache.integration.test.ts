// `type: bedrock` through the real gateway against test/fake-bedrock.ts, for what the Converse body says
// beyond the basics of bedrock-gateway.integration.test.ts: adaptive thinking for the Claude models that
// take it (`additionalModelRequestFields.thinking: {type: "adaptive"}` + `output_config.effort`, per AWS's
// "Adaptive thinking" page) while Claude 4.5 keeps its budget, and cache points with a TTL
// (API_runtime_CachePointBlock `ttl`), whose 1-hour writes (TokenUsage.cacheDetails) are priced apart.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { db } from '@/server/db';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { startFakeBedrock, type BedrockAnswer, type BedrockRequest, type FakeBedrock } from '@/test/fake-bedrock';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const converse = (usage: object = { inputTokens: 12, outputTokens: 6, totalTokens: 18 }) => ({
  output: { message: { role: 'assistant', content: [{ text: 'Done.' }] } },
  stopReason: 'end_turn',
  usage,
  metrics: { latencyMs: 100 },
});

const MODELS: Record<string, string> = {
  'test/opus-4-6': 'us.anthropic.claude-opus-4-6-v1',
  'test/sonnet-4-6': 'anthropic.claude-sonnet-4-6',
  'test/opus-5': 'anthropic.claude-opus-5',
  'test/opus-5-5': 'global.anthropic.claude-opus-5-5',
  'test/sonnet-4-5': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
};
// cache_write_1h is dearer than cache_write: a 1-hour write priced as a 5-minute one would show.
const PRICES = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, cache_write_1h: 6 };
const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describeEachDatabase('bedrock: adaptive thinking and cache-point TTLs', () => {
  let h: GatewayHarness;
  let key: string;
  let bedrock: FakeBedrock;
  let answer: (req: BedrockRequest) => BedrockAnswer;

  const config = (): RoutingFileInput => ({
    providers: [{ id: 'bedrock', type: 'bedrock', base_url: bedrock.url, region: 'us-east-1', keys: [{ key: 'bedrock-api-key' }] }],
    models: Object.entries(MODELS).map(([id, upstream]) => ({
      id,
      name: id,
      context_length: 200_000,
      max_output_tokens: 64_000,
      supports_reasoning: true,
      endpoints: [{ provider: 'bedrock', upstream_model: upstream, pricing: PRICES }],
    })),
  });

  beforeAll(async () => {
    bedrock = await startFakeBedrock({ credentials: {}, apiKeys: ['bedrock-api-key'], respond: (req) => answer(req) });
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(50)).key;
  });
  afterAll(async () => {
    await h?.close();
    await bedrock?.close();
  });
  beforeEach(() => {
    answer = () => ({ json: converse() });
    bedrock.requests.length = 0;
    bedrock.refused.length = 0;
  });

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: false, ...body }),
    });
  const sentFor = async (body: object) => {
    const res = await post(body);
    expect(res.status, await res.clone().text()).toBe(200);
    return bedrock.requests.at(-1)!.body;
  };

  it('Opus 4.6 and Sonnet 4.6: adaptive thinking with the effort asked for, never a budget; sampling dropped while thinking', async () => {
    const sent = await sentFor({ model: 'test/opus-4-6', reasoning_effort: 'high', temperature: 0.3 });
    expect(bedrock.requests.at(-1)!.modelId).toBe('us.anthropic.claude-opus-4-6-v1');
    expect(sent.additionalModelRequestFields).toEqual({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
    expect(sent.inferenceConfig).toEqual({ maxTokens: 32_000 });

    // reasoning.max_tokens picks the effort whose budget it fits; minimal becomes low.
    expect((await sentFor({ model: 'test/sonnet-4-6', reasoning: { max_tokens: 3000 }, max_tokens: 10_000 })).additionalModelRequestFields).toEqual({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect((await sentFor({ model: 'test/sonnet-4-6', reasoning: { effort: 'minimal' } })).additionalModelRequestFields.output_config).toEqual({ effort: 'low' });
    // No reasoning parameter: adaptive at the model's default effort.
    expect((await sentFor({ model: 'test/sonnet-4-6' })).additionalModelRequestFields).toEqual({ thinking: { type: 'adaptive' } });
  });

  it('Opus 4.6 with thinking off or a forced tool: no thinking field, the client sampling and tool choice kept', async () => {
    const off = await sentFor({ model: 'test/opus-4-6', reasoning: { enabled: false }, temperature: 0.3, max_tokens: 500 });
    expect(off.additionalModelRequestFields).toBeUndefined();
    expect(off.inferenceConfig).toEqual({ maxTokens: 500, temperature: 0.3 });

    const forced = await sentFor({ model: 'test/opus-4-6', tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    expect(forced.additionalModelRequestFields).toBeUndefined();
    expect(forced.toolConfig.toolChoice).toEqual({ tool: { name: 'get_weather' } });
  });

  it('Claude 5: summarized display, thinking disabled its own way; Opus 5.5 cannot stop, and a forced tool becomes auto', async () => {
    expect((await sentFor({ model: 'test/opus-5', reasoning_effort: 'medium' })).additionalModelRequestFields).toEqual({
      thinking: { type: 'adaptive', display: 'summarized' },
      output_config: { effort: 'medium' },
    });
    expect((await sentFor({ model: 'test/opus-5', reasoning: { enabled: false }, temperature: 0.2 })).additionalModelRequestFields).toEqual({ thinking: { type: 'disabled' } });
    // Sampling parameters answer 400 on Claude 5 whatever the thinking: never sent.
    expect(bedrock.requests.at(-1)!.body.inferenceConfig.temperature).toBeUndefined();

    const opus55 = await sentFor({ model: 'test/opus-5-5', reasoning: { enabled: false }, tools: [weatherTool], tool_choice: 'required' });
    expect(opus55.additionalModelRequestFields).toEqual({ thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'low' } });
    expect(opus55.toolConfig.toolChoice).toBeUndefined();
  });

  it('Claude Sonnet 4.5 keeps budget-style thinking', async () => {
    const sent = await sentFor({ model: 'test/sonnet-4-5', reasoning_effort: 'low' });
    expect(sent.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 } });
    expect(sent.inferenceConfig.maxTokens).toBe(4096 + 8192);
  });

  it('cache_control ttl "1h" becomes a cachePoint with that ttl; cacheDetails prices the 1-hour writes apart', async () => {
    answer = () => ({
      json: converse({ inputTokens: 100, outputTokens: 50, totalTokens: 1350, cacheReadInputTokens: 1_000, cacheWriteInputTokens: 200, cacheDetails: [{ ttl: '1h', inputTokens: 150 }, { ttl: '5m', inputTokens: 50 }] }),
    });
    const hour = { type: 'ephemeral', ttl: '1h' };
    const res = await post({
      model: 'test/sonnet-4-5',
      reasoning: { enabled: false },
      tools: [{ ...weatherTool, cache_control: hour }],
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Long instructions.', cache_control: hour }] },
        { role: 'user', content: [{ type: 'text', text: 'Question.', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const sent = bedrock.requests.at(-1)!.body;
    expect(sent.toolConfig.tools[1]).toEqual({ cachePoint: { type: 'default', ttl: '1h' } });
    expect(sent.system).toEqual([{ text: 'Long instructions.' }, { cachePoint: { type: 'default', ttl: '1h' } }]);
    expect(sent.messages[0].content).toEqual([{ text: 'Question.' }, { cachePoint: { type: 'default' } }]);
    const body = await res.json();
    // 100 × $3 + 50 × $15 + 1,000 × $0.30 + 50 × $3.75 + 150 × $6 per million = 300 + 750 + 300 + 187.5 + 900 µ$ → 2,438 (rounded up).
    await h.runtime.settlements.flush();
    const record = await (await db()).usageRecord.findUniqueOrThrow({ where: { id: body.id } });
    expect(record).toMatchObject({ cacheWriteTokens: 200, costMicros: 2_438n });
  });

  it('automatic caching (top-level cache_control with ttl) puts 1-hour cache points; a longer TTL after a shorter one is Bedrock\'s 400', async () => {
    const sent = await sentFor({
      model: 'test/sonnet-4-5',
      reasoning: { enabled: false },
      cache_control: { type: 'ephemeral', ttl: '1h' },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(sent.system.at(-1)).toEqual({ cachePoint: { type: 'default', ttl: '1h' } });
    expect(sent.messages[0].content.at(-1)).toEqual({ cachePoint: { type: 'default', ttl: '1h' } });

    const res = await post({
      model: 'test/sonnet-4-5',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      ],
    });
    expect(res.status).toBe(400);
    expect(bedrock.refused.at(-1)?.errorType).toBe('ValidationException');
  });
});
