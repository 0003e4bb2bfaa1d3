// The OpenAI-compatible crowd through the real gateway: a fake Mistral that rejects non-conforming tool-call
// ids and `stream_options` as Mistral does; a fake Groq answering gpt-oss reasoning in `reasoning`; a fake
// OpenRouter echoing `reasoning_details`; and an Anthropic-compatible third party (`type: anthropic`, another
// base_url) replaying Anthropic's recorded answers. Wire shapes from each service's API reference
// (docs.mistral.ai/api, console.groq.com/docs/reasoning, openrouter.ai/docs/use-cases/reasoning-tokens); the
// Mistral error body as quoted in client bug reports (opencode#1680, nearai/ironclaw#1241).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

type Msg = { role: string; tool_call_id?: string; tool_calls?: { id: string }[] };

function fakeMistral(req: RecordedRequest): FakeResponse {
  const body = req.body as { messages: Msg[]; stream?: boolean; stream_options?: unknown; tools?: unknown[] };
  if (body.stream_options !== undefined) {
    return { status: 422, json: { object: 'error', message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted' }] }, type: 'invalid_request_error', param: null, code: null } };
  }
  for (const m of body.messages) {
    for (const id of [m.tool_call_id, ...(m.tool_calls ?? []).map((c) => c.id)]) {
      if (id !== undefined && !/^[A-Za-z0-9]{9}$/.test(id)) {
        return { status: 400, json: { object: 'error', message: `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`, type: 'invalid_function_call', param: null, code: '3280' } };
      }
    }
  }
  const base = { id: 'cmpl-e5cc70bb28c444948073e77776eb30ef', created: 1702256327, model: 'mistral-large-2512' };
  const usage = { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 };
  const toolCall = { id: 'D681PevKs', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } };
  const wantsTool = body.tools !== undefined && body.messages.at(-1)?.role === 'user';
  if (body.stream) {
    const chunks = [
      { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      wantsTool
        ? { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: 'tool_calls' }], usage }
        : { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Bonjour' }, finish_reason: 'stop' }], usage },
    ];
    return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'] };
  }
  const message = wantsTool ? { role: 'assistant', content: '', tool_calls: [toolCall] } : { role: 'assistant', content: 'Bonjour', tool_calls: null };
  return { status: 200, json: { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: wantsTool ? 'tool_calls' : 'stop' }], usage } };
}

describeEachDatabase('OpenAI-compatible service profiles', () => {
  let h: GatewayHarness;
  let key: string;
  const up: Record<string, FakeUpstream> = {};

  const config = (): RoutingFileInput => {
    const model = (id: string, provider: string, upstream_model: string, extra: object = {}) => ({
      id, name: id, context_length: 128_000, max_output_tokens: 4_096, ...extra, endpoints: [{ provider, upstream_model, pricing: { input: 1, output: 2 } }],
    });
    return {
      providers: [
        { id: 'mistral-test', type: 'mistral', base_url: `${up.mistral!.url}/v1`, keys: [{ key: 'mistral-key' }] },
        { id: 'groq-test', type: 'groq', base_url: `${up.groq!.url}/openai/v1`, keys: [{ key: 'groq-key' }] },
        { id: 'openrouter-test', type: 'openrouter', base_url: `${up.openrouter!.url}/api/v1`, keys: [{ key: 'or-key' }] },
        { id: 'claude-proxy', type: 'anthropic', base_url: `${up.anthropic!.url}/anthropic`, keys: [{ key: 'third-party-key' }] },
      ],
      models: [
        model('test/mistral', 'mistral-test', 'mistral-large-2512', { supports_images: true }),
        model('test/gpt-oss', 'groq-test', 'openai/gpt-oss-120b', { supports_reasoning: true }),
        model('test/openrouter', 'openrouter-test', 'anthropic/claude-sonnet-4.5', { supports_reasoning: true }),
        model('test/claude-proxy', 'claude-proxy', 'claude-sonnet-4-5', { supports_reasoning: true }),
      ],
    };
  };

  beforeAll(async () => {
    up.mistral = await startFakeUpstream(fakeMistral);
    up.groq = await startFakeUpstream(() => ({
      status: 200,
      json: {
        id: 'chatcmpl-groq1', object: 'chat.completion', created: 1, model: 'openai/gpt-oss-120b',
        choices: [{ index: 0, message: { role: 'assistant', content: '4', reasoning: 'The user asks 2+2. That is 4.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 15, completion_tokens: 20, total_tokens: 35, completion_tokens_details: { reasoning_tokens: 12 } },
        x_groq: { id: 'req_01' },
      },
    }));
    up.openrouter = await startFakeUpstream(() => ({
      status: 200,
      json: {
        id: 'gen-1', object: 'chat.completion', created: 1, model: 'anthropic/claude-sonnet-4.5', provider: 'Anthropic',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Done', reasoning: 'Thinking…', reasoning_details: [{ type: 'reasoning.text', text: 'Thinking…', signature: 'sig-123', format: 'anthropic-claude-v1', index: 0 }] }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40, cost: 0.00024 },
      },
    }));
    up.anthropic = await startFakeUpstream((req) =>
      (req.body as { stream?: boolean }).stream
        ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('anthropic', 'text') }
        : { status: 200, json: JSON.parse(readFixture('anthropic', 'text.json')) },
    );
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(50)).key;
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all(Object.values(up).map((u) => u.close()));
  });

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ stream: false, ...body }) });
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];

  it('Mistral: a conversation with another provider’s tool-call ids is accepted (ids remapped the same way in both messages)', async () => {
    const messages = [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', content: '18°C' },
      { role: 'user', content: [{ type: 'text', text: 'And this picture?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
    ];
    const res = await post({ model: 'test/mistral', messages, seed: 7, user: 'u-1' });
    expect(res.status).toBe(200);
    expect((await res.json()).choices[0].message.content).toBe('Bonjour');
    const sent = up.mistral!.requests.at(-1)!.body as { messages: Msg[]; random_seed?: number; seed?: number; user?: string };
    const id = sent.messages[1]!.tool_calls![0]!.id;
    expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(sent.messages[2]!.tool_call_id).toBe(id);
    expect(sent).toMatchObject({ random_seed: 7 });
    expect(sent.seed).toBeUndefined();
    expect(sent.user).toBeUndefined();
  });

  it('Mistral: streamed tool calls keep Mistral’s ids, which come back unchanged on the next turn; no stream_options', async () => {
    const first = await readSse(await post({ model: 'test/mistral', stream: true, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] }));
    const call = first.chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? [])[0];
    expect(call).toMatchObject({ id: 'D681PevKs', function: { name: 'get_weather' } });
    const second = await post({
      model: 'test/mistral', stream: true, tools,
      messages: [{ role: 'user', content: 'Weather in Paris?' }, { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] }, { role: 'tool', tool_call_id: call.id, content: '18°C' }],
    });
    const { chunks } = await readSse(second);
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')).toBe('Bonjour');
    const sent = up.mistral!.requests.at(-1)!.body as { messages: Msg[]; stream_options?: unknown };
    expect(sent.messages[1]!.tool_calls![0]!.id).toBe('D681PevKs');
    expect(sent.stream_options).toBeUndefined();
  });

  it('Groq: reasoning_effort is sent to gpt-oss, and its `reasoning` comes back as ours', async () => {
    const res = await post({ model: 'test/gpt-oss', reasoning: { effort: 'medium' }, messages: [{ role: 'user', content: '2+2?' }] });
    const body = await res.json();
    expect(body.choices[0].message).toMatchObject({ content: '4', reasoning: 'The user asks 2+2. That is 4.' });
    expect(up.groq!.requests.at(-1)!.body).toMatchObject({ model: 'openai/gpt-oss-120b', reasoning_effort: 'medium' });
  });

  it('OpenRouter: cache_control, reasoning and reasoning_details go up unchanged; reasoning_details come back', async () => {
    const details = [{ type: 'reasoning.text', text: 'Earlier thought', signature: 'sig-0', format: 'anthropic-claude-v1', index: 0 }];
    const messages = [
      { role: 'system', content: [{ type: 'text', text: 'Long system prompt', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: 'Ok', reasoning_details: details },
      { role: 'user', content: 'Continue' },
    ];
    const res = await post({ model: 'test/openrouter', reasoning: { max_tokens: 2000 }, messages });
    const body = await res.json();
    expect(body.choices[0].message.reasoning_details).toEqual([{ type: 'reasoning.text', text: 'Thinking…', signature: 'sig-123', format: 'anthropic-claude-v1', index: 0 }]);
    const sent = up.openrouter!.requests.at(-1)!.body as { messages: { content: unknown; reasoning_details?: unknown }[]; reasoning?: unknown };
    expect(sent.messages[0]!.content).toEqual([{ type: 'text', text: 'Long system prompt', cache_control: { type: 'ephemeral' } }]);
    expect(sent.messages[2]!.reasoning_details).toEqual(details);
    expect(sent.reasoning).toEqual({ max_tokens: 2000 });
  });

  it('an Anthropic-compatible third party: type anthropic with its own base_url, answers and streams', async () => {
    const plain = await post({ model: 'test/claude-proxy', messages: [{ role: 'user', content: 'Hello' }] });
    expect(plain.status).toBe(200);
    expect((await plain.json()).choices[0].message.content).toBe('Hello! How can I help you today?');
    const sent = up.anthropic!.requests.at(-1)!;
    expect(sent.path).toBe('/anthropic/v1/messages');
    expect(sent.headers['x-api-key']).toBe('third-party-key');
    const { chunks, done } = await readSse(await post({ model: 'test/claude-proxy', stream: true, messages: [{ role: 'user', content: 'Hello' }] }));
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('').length).toBeGreaterThan(0);
  });
});
