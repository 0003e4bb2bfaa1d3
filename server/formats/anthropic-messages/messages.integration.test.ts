// POST /api/v1/messages end to end, with Anthropic's official SDK as the client (its MessageStream checks
// the event order) against fake upstreams replaying each provider's recorded wire format.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { fixtureChunks } from '@/test/fake-upstream';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const weatherTool = { name: 'get_weather', description: 'Weather for a place', input_schema: { type: 'object' as const, properties: { location: { type: 'string' } }, required: ['location'] } };

describeEachDatabase('the Anthropic Messages API', () => {
  let h: GatewayHarness;
  let client: Anthropic;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
    // The SDK appends /v1/messages: the base URL is …/api, as ANTHROPIC_BASE_URL for Claude Code.
    client = new Anthropic({ apiKey: key, baseURL: h.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
  });
  afterAll(() => h?.close());
  const lastUpstream = () => h.upstream.requests.at(-1)!;

  async function charged(id: string) {
    await h.runtime.settlements.flush();
    return (await db()).usageRecord.findUnique({ where: { id } });
  }

  it("non-streaming, by Anthropic's dated name: the body passes through, the answer is a message with usage", async () => {
    h.respond = replay('anthropic', 'text');
    const { data, response } = await client.messages
      .create({ model: 'claude-sonnet-4-5-20250929', max_tokens: 1000, messages: [{ role: 'user', content: 'Say hello' }], ...({ top_k: 5 } as object) })
      .withResponse();
    // The model that answered, by its canonical id (as Anthropic names the model an alias resolved to).
    expect(data).toMatchObject({ type: 'message', role: 'assistant', model: 'anthropic/claude-sonnet-4.5', stop_reason: 'end_turn', stop_sequence: null });
    expect(data.content).toEqual([{ type: 'text', text: 'Hello! How can I help you today?' }]);
    expect(data.usage).toMatchObject({ input_tokens: 25, output_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(response.headers.get('x-generation-id')).toBe(data.id);
    const sent = lastUpstream();
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream-SECRET');
    // top_k has no Chat Completions field: only a passthrough keeps it.
    expect(sent.body).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 1000, messages: [{ role: 'user', content: 'Say hello' }], top_k: 5, stream: false });
    const record = await charged(data.id);
    expect(record).toMatchObject({ model: 'anthropic/claude-sonnet-4.5', status: 'SUCCESS', promptTokens: 25, completionTokens: 12, streamed: false });
  });

  it('max_tokens above the model maximum is capped upstream', async () => {
    h.respond = replay('anthropic', 'text');
    // An explicit timeout: the SDK refuses a non-streaming call this large otherwise.
    await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 500_000, messages: [{ role: 'user', content: 'Hi' }] }, { timeout: 30_000 });
    expect((lastUpstream().body as any).max_tokens).toBe(64_000);
  });

  it('streams thinking and a tool call in order; the signed thinking goes back upstream byte for byte on the tool turn', async () => {
    h.respond = replay('anthropic', 'thinking_tool_use');
    const params = { model: 'anthropic/claude-sonnet-4.5', max_tokens: 16_000, thinking: { type: 'enabled' as const, budget_tokens: 10_000 }, tools: [weatherTool] };
    const stream = client.messages.stream({ ...params, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type === 'content_block_delta' ? `delta:${e.delta.type}` : e.type));
    const first = await stream.finalMessage();
    expect(events[0]).toBe('message_start');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(events).toContain('delta:signature_delta');
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    const recorded = fixtureChunks('anthropic', 'thinking_tool_use').join('');
    const signature = /"signature":"([^"]+)"/.exec(recorded.split('signature_delta')[1])![1];
    expect((first.content[0] as Anthropic.ThinkingBlock).signature).toBe(signature);
    expect(first.content[1]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { location: 'Paris, France' } });
    expect(first.usage).toMatchObject({ input_tokens: 544, output_tokens: 87 });

    h.respond = replay('anthropic', 'text');
    const toolUse = first.content[1] as Anthropic.ToolUseBlock;
    await client.messages.create({
      ...params,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18°C, sunny' }] },
      ],
    });
    const sent = lastUpstream();
    expect((sent.body as any).messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'The user wants the weather in Paris. I should call get_weather.', signature });
    expect(sent.rawBody).toContain(`"signature":"${signature}"`);
    expect((sent.body as any).thinking).toEqual({ type: 'enabled', budget_tokens: 10_000 });
  });

  it('cache_control arrives upstream exactly where the client put it', async () => {
    h.respond = replay('anthropic', 'cached_usage');
    const breakpoint = { type: 'ephemeral' as const };
    const long = { type: 'ephemeral' as const, ttl: '1h' as const };
    const res = await client.messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Project notes…', cache_control: long }],
      tools: [{ ...weatherTool, cache_control: breakpoint }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Big context', cache_control: breakpoint }, { type: 'text', text: 'Question?' }] }],
    });
    const sent = lastUpstream().body as any;
    expect(sent.system[1].cache_control).toEqual(long);
    expect(sent.system[0].cache_control).toBeUndefined();
    expect(sent.tools[0].cache_control).toEqual(breakpoint);
    expect(sent.messages[0].content[0].cache_control).toEqual(breakpoint);
    expect(sent.messages[0].content[1].cache_control).toBeUndefined();
    // Anthropic's usage shape: input_tokens without the cache reads and writes it reports apart.
    expect(res.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it('translates to an OpenAI model and back: tool calls as tool_use blocks, tool_result as a tool message', async () => {
    h.respond = replay('openai', 'tool_calls');
    const stream = client.messages.stream({ model: 'openai/gpt-4o-mini', max_tokens: 500, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Paris and Rome?' }] });
    const message = await stream.finalMessage();
    const sentFirst = lastUpstream();
    expect(sentFirst.path).toBe('/v1/chat/completions');
    expect((sentFirst.body as any).tools[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', parameters: weatherTool.input_schema } });
    expect(message.stop_reason).toBe('tool_use');
    const uses = message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) expect(typeof u.input).toBe('object');

    h.respond = replay('openai', 'text');
    const answer = await client.messages.create({
      model: 'openai/gpt-4o-mini',
      max_tokens: 500,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: message.content },
        { role: 'user', content: uses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: '20°C' })) },
      ],
    });
    expect(answer.content[0].type).toBe('text');
    const sent = lastUpstream().body as any;
    expect(sent.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: uses.at(-1)!.id, content: '20°C' });
    expect(sent.messages[1].tool_calls[0]).toMatchObject({ id: uses[0].id, function: { name: 'get_weather' } });
  });

  it('a failure after the stream began is an `error` event the SDK raises', async () => {
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('anthropic', 'error_midstream') });
    const stream = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Story' }] });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const error = await stream.finalMessage().then(
      () => null,
      (err: unknown) => err,
    );
    expect(texts.join('')).toBe('Once upon a time');
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  describe("errors in Anthropic's shape", () => {
    it('401 for a wrong x-api-key', async () => {
      const bad = new Anthropic({ apiKey: 'sk-sb-v1-wrong', baseURL: client.baseURL, maxRetries: 0 });
      const err = await bad.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((err as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    });

    it('400 for a request without max_tokens, 404 for an unknown model', async () => {
      const res = await fetch(`${h.baseUrl}/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }] }),
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(body.error.message).toContain('max_tokens');

      const err = await client.messages.create({ model: 'claude-nonexistent-9', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.NotFoundError);
      expect((err as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ error: { type: 'not_found_error' } });
    });
  });
});
