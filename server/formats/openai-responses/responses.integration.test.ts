// POST /api/v1/responses end to end with the official OpenAI SDK (responses.create, streamed and not,
// responses.retrieve / delete) against fake upstreams replaying each provider's recorded wire format: OpenAI's
// Responses API (fixtures from OpenAI's streaming-events reference, server/providers/openai/__fixtures__)
// and Anthropic's Messages API. GET/DELETE /responses/{id} are Next route handlers: the SDK reaches them
// through its `fetch` option, the POST through the real node:http gateway.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELETE, GET } from '@/app/api/v1/responses/[id]/route';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness, type Responder } from '@/test/gateway-harness';

const weatherTool = { type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };

/** The OpenAI fake: Responses API fixtures at /v1/responses only (a chat completions call would fail the test). */
const responsesApi = (scenario: string, extra: { destroyAfter?: number } = {}): Responder => (req) => {
  if (!req.path.endsWith('/responses')) return { status: 404, json: { error: { message: `unexpected path ${req.path}` } } };
  if (req.body?.stream === true) return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', `${scenario}.chunks.txt`), ...extra };
  return { status: 200, json: JSON.parse(readFixture('openai', `${scenario}.json`)) };
};

describeEachDatabase('the OpenAI Responses API', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let other: OpenAI;
  let account: string;

  /** GET/DELETE /responses/{id} go to the route handlers; everything else over HTTP to the gateway. */
  const fetchVia = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const match = /\/api\/v1\/responses\/([^/?]+)$/.exec(new URL(request.url).pathname);
    if (match && (request.method === 'GET' || request.method === 'DELETE')) {
      const handler = request.method === 'GET' ? GET : DELETE;
      return handler(request, { params: Promise.resolve({ id: decodeURIComponent(match[1]!) }) });
    }
    return fetch(request);
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    const u = await fundedUser(10);
    account = u.user.personal_account_id;
    client = new OpenAI({ apiKey: u.key, baseURL: h.baseUrl, maxRetries: 0, fetch: fetchVia });
    other = new OpenAI({ apiKey: (await fundedUser(10)).key, baseURL: h.baseUrl, maxRetries: 0, fetch: fetchVia });
  });
  afterAll(() => h?.close());

  const upstreamBody = () => h.upstream.requests.at(-1)!.body as any;

  it('non-streaming text through OpenAI (passthrough to /v1/responses), usage and cost, charged', async () => {
    h.respond = responsesApi('responses_text');
    const res = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'Say hello', store: false });
    expect(res.id).toMatch(/^resp_/);
    expect(res.object).toBe('response');
    expect(res.status).toBe('completed');
    expect(res.output_text.length).toBeGreaterThan(0);
    expect(res.output.at(-1)).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text' }] });
    expect(res.usage!.input_tokens).toBeGreaterThan(0);
    expect((res.usage as any).cost).toBeGreaterThan(0);
    expect(h.upstream.requests.at(-1)!.path).toBe('/v1/responses');
    expect(upstreamBody()).toMatchObject({ model: 'gpt-6.2-sol', store: false, include: ['reasoning.encrypted_content'], input: [{ type: 'message', role: 'user', content: 'Say hello' }] });
    await h.runtime.settlements.flush();
    const rec = await (await db()).usageRecord.findUnique({ where: { id: `gen-${res.id.slice('resp_'.length)}` } });
    expect(rec?.status).toBe('SUCCESS');
    expect(rec?.accountId ?? account).toBe(account);
  });

  it('a chat-profile OpenAI model is also called through the Responses API', async () => {
    h.respond = responsesApi('responses_text');
    const res = await client.responses.create({ model: 'openai/gpt-4o-mini', input: 'Say hello', store: false });
    expect(res.output_text.length).toBeGreaterThan(0);
    expect(h.upstream.requests.at(-1)!.path).toBe('/v1/responses');
    expect(upstreamBody().include).toBeUndefined(); // not a reasoning model: OpenAI refuses encrypted content there
  });

  it('streaming: typed events in order with increasing sequence numbers, ending with response.completed and usage', async () => {
    h.respond = responsesApi('responses_text');
    const stream = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'Say hello', stream: true, store: false });
    const events: any[] = [];
    for await (const e of stream) events.push(e);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types).toContain('response.output_item.added');
    expect(types).toContain('response.content_part.added');
    expect(types.indexOf('response.output_text.done')).toBeGreaterThan(types.indexOf('response.output_text.delta'));
    expect(types.at(-1)).toBe('response.completed');
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
    const done = events.at(-1).response;
    expect(done.output.find((i: any) => i.type === 'message').content[0].text).toBe(text);
    expect(done.usage.output_tokens).toBeGreaterThan(0);
    expect(done.usage.cost).toBeGreaterThan(0);
  });

  it('function call round trip: the encrypted reasoning arrives upstream byte for byte on the next turn', async () => {
    h.respond = responsesApi('responses_tool_call');
    const input: any[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const stream = await client.responses.create({ model: 'openai/gpt-6.2-sol', input, tools: [weatherTool], store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'medium', summary: 'auto' }, stream: true });
    const events: any[] = [];
    for await (const e of stream) events.push(e);
    const items = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    const reasoning = items.find((i) => i.type === 'reasoning');
    const call = items.find((i) => i.type === 'function_call');
    const recorded = JSON.parse(readFixture('openai', 'responses_tool_call.json'));
    expect(reasoning.encrypted_content).toBe(recorded.output[0].encrypted_content);
    expect(reasoning.summary[0].text).toContain('Checking the weather request');
    expect(call).toMatchObject({ call_id: 'call_Xk3mQ9vT2pLw7RnB5sYc1dHf', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    expect(events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join('')).toBe('{"city":"Paris"}');
    expect(events.at(-1).type).toBe('response.completed');

    h.respond = responsesApi('responses_text');
    await client.responses.create({ model: 'openai/gpt-6.2-sol', input: [...input, ...items, { type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":18}' }], tools: [weatherTool], store: false, include: ['reasoning.encrypted_content'] });
    const sent = upstreamBody();
    const sentReasoning = sent.input.find((i: any) => i.type === 'reasoning');
    expect(sentReasoning.encrypted_content).toBe(recorded.output[0].encrypted_content);
    expect(sentReasoning.id).toBe(recorded.output[0].id);
    expect(sent.input.at(-1)).toEqual({ type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":18}' });
  });

  it('translated to Anthropic and back: tool call with signed thinking, which returns first in the assistant turn', async () => {
    h.respond = replay('anthropic', 'thinking_tool_use');
    const input: any[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const res = await client.responses.create({ model: 'anthropic/claude-sonnet-4.5', instructions: 'Be brief.', input, tools: [weatherTool], store: false, include: ['reasoning.encrypted_content'] });
    const call = res.output.find((i) => i.type === 'function_call') as any;
    const reasoning = res.output.find((i) => i.type === 'reasoning') as any;
    expect(call).toMatchObject({ name: 'get_weather', call_id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn' });
    expect(reasoning.summary[0].text).toContain('I should call get_weather');
    expect(typeof reasoning.encrypted_content).toBe('string');
    const first = h.upstream.requests.at(-1)!;
    expect(first.path).toBe('/v1/messages');
    expect((first.body as any).system).toBeDefined();

    h.respond = replay('anthropic', 'text');
    const next = await client.responses.create({ model: 'anthropic/claude-sonnet-4.5', input: [...input, ...res.output, { type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":18}' }] as any, tools: [weatherTool], store: false });
    expect(next.output_text.length).toBeGreaterThan(0);
    const assistant = upstreamBody().messages.find((m: any) => m.role === 'assistant');
    const recorded = JSON.parse(readFixture('anthropic', 'thinking_tool_use.json'));
    expect(assistant.content[0]).toMatchObject({ type: 'thinking', signature: recorded.content[0].signature });
    expect(assistant.content.some((b: any) => b.type === 'tool_use' && b.id === call.call_id)).toBe(true);
    expect(upstreamBody().messages.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: call.call_id });
  });

  it('a failure after the stream began ends with response.failed, not a silent cut', async () => {
    h.respond = responsesApi('responses_text', { destroyAfter: 5 });
    const res = await fetch(`${h.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/gpt-6.2-sol', input: 'Say hello', stream: true, store: false }) });
    expect(res.status).toBe(200);
    const raw = await res.text();
    const events = raw.split('\n\n').filter((b) => b.startsWith('event: ')).map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6)));
    const last = events.at(-1);
    expect(last.type).toBe('response.failed');
    expect(raw).toContain('event: response.failed\n');
    expect(last.response.status).toBe('failed');
    expect(last.response.error.message.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'response.completed')).toBe(false);
  });

  it('store: true keeps the response for its account; previous_response_id continues it; retrieve and delete', async () => {
    h.respond = responsesApi('responses_text');
    const first = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'My name is Ada.', instructions: 'Be brief.' });
    expect((first as any).store).toBe(true);
    const got = await client.responses.retrieve(first.id);
    expect(got.id).toBe(first.id);
    expect(got.output_text).toBe(first.output_text);

    await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'What is my name?', previous_response_id: first.id, store: false });
    const sent = upstreamBody();
    expect(sent.previous_response_id).toBeUndefined();
    expect(sent.store).toBe(false);
    expect(sent.input[0]).toEqual({ type: 'message', role: 'user', content: 'My name is Ada.' });
    expect(sent.input.some((i: any) => i.type === 'message' && i.role === 'assistant' && i.content[0].text === first.output_text)).toBe(true);
    expect(sent.input.at(-1)).toEqual({ type: 'message', role: 'user', content: 'What is my name?' });

    // Another account: 404 for retrieve, delete and continuation alike, and nothing is sent upstream.
    const before = h.upstream.requests.length;
    await expect(other.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.delete(first.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.create({ model: 'openai/gpt-6.2-sol', input: 'hi', previous_response_id: first.id })).rejects.toMatchObject({ status: 404, error: { type: 'invalid_request_error', param: 'previous_response_id' } });
    expect(h.upstream.requests.length).toBe(before);

    const deleted = await fetchVia(`${h.baseUrl}/responses/${first.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${client.apiKey}` } });
    expect(await deleted.json()).toEqual({ id: first.id, object: 'response', deleted: true });
    await expect(client.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
  });

  it('a streamed store: true response can be retrieved at once, with the items that were streamed', async () => {
    h.respond = responsesApi('responses_tool_call');
    const stream = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'Weather in Paris?', tools: [weatherTool], stream: true });
    let completed: any;
    for await (const e of stream) if (e.type === 'response.completed') completed = e.response;
    const got = (await client.responses.retrieve(completed.id)) as any;
    expect(got.output).toEqual(completed.output);
    expect(got.output.find((i: any) => i.type === 'reasoning').encrypted_content).toBeUndefined(); // not in `include`
    const row = await (await db()).storedResponse.findUnique({ where: { id: completed.id } });
    expect((row!.output as any[]).find((i) => i.type === 'reasoning').encrypted_content).toMatch(/^gAAAA/); // kept for continuation
  });

  it('store: false writes nothing', async () => {
    h.respond = responsesApi('responses_text');
    const res = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'hi', store: false });
    expect(await (await db()).storedResponse.findUnique({ where: { id: res.id } })).toBeNull();
  });

  it("errors come in OpenAI's shape with the right status", async () => {
    const post = (body: unknown, key = client.apiKey) => fetch(`${h.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const missing = await post({ model: 'openai/gpt-6.2-sol' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: { message: expect.stringContaining('input'), type: 'invalid_request_error', param: 'input', code: 'bad_request' } });
    const badTemp = await post({ model: 'openai/gpt-6.2-sol', input: 'x', temperature: 9 });
    expect((await badTemp.json()).error).toMatchObject({ type: 'invalid_request_error', param: 'temperature' });
    const unknownModel = await post({ model: 'nobody/nothing', input: 'x' });
    expect(unknownModel.status).toBe(404);
    const badKey = await post({ model: 'openai/gpt-6.2-sol', input: 'x' }, 'sk-sb-v1-nope');
    expect(badKey.status).toBe(401);
    expect((await badKey.json()).error.type).toBe('authentication_error');
    await expect(client.responses.retrieve('resp_unknown')).rejects.toMatchObject({ status: 404 });
  });
});
