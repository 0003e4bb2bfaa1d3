// What the official OpenAI SDK sees of POST /api/v1/responses where OpenAI's wire format is exact: a truncated
// answer's item is `incomplete` (streamed, not streamed, stored); `background` and `conversation` are refused
// rather than ignored; an allowed_tools tool_choice reaches a translated model; a translated stream closes each
// item before it opens the next. Through the real node:http gateway, against fake upstreams replaying each
// provider's recorded wire format; GET /responses/{id} through its route handler.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/v1/responses/[id]/route';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness, type Responder } from '@/test/gateway-harness';

const tool = (name: string) => ({ type: 'function' as const, name, parameters: { type: 'object', properties: {} }, strict: false });

/** OpenAI's Responses API cut by max_output_tokens: the recorded stream, and its non-streamed form. */
const openaiIncomplete: Responder = (req) => {
  if (req.body?.stream === true) return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'responses_incomplete.chunks.txt') };
  const body = JSON.parse(readFixture('openai', 'responses_text.json'));
  body.status = 'incomplete';
  body.incomplete_details = { reason: 'max_output_tokens' };
  body.output[0].status = 'incomplete';
  return { status: 200, json: body };
};

describeEachDatabase('the Responses API as the OpenAI SDK expects it', () => {
  let h: GatewayHarness;
  let client: OpenAI;

  const fetchVia = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const match = /\/api\/v1\/responses\/([^/?]+)$/.exec(new URL(request.url).pathname);
    if (match && request.method === 'GET') return GET(request, { params: Promise.resolve({ id: decodeURIComponent(match[1]!) }) });
    return fetch(request);
  };
  const upstreamBody = () => h.upstream.requests.at(-1)!.body as any;
  const collect = async (stream: AsyncIterable<any>) => {
    const events: any[] = [];
    for await (const e of stream) events.push(e);
    return events;
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    client = new OpenAI({ apiKey: (await fundedUser(10)).key, baseURL: h.baseUrl, maxRetries: 0, fetch: fetchVia });
  });
  afterAll(() => h?.close());

  describe('a truncated answer marks its message item incomplete', () => {
    for (const [name, model, respond] of [
      ['Anthropic (max_tokens)', 'anthropic/claude-sonnet-4.5', replay('anthropic', 'max_tokens')],
      ['OpenAI (incomplete upstream)', 'openai/gpt-6.2-sol', openaiIncomplete],
    ] as const) {
      it(`${name}: in output_item.done, response.incomplete, the body and GET afterwards`, async () => {
        h.respond = respond;
        const events = await collect(await client.responses.create({ model, input: 'Tell me a story', max_output_tokens: 16, stream: true }));
        const last = events.at(-1);
        expect(last.type).toBe('response.incomplete');
        expect(last.response.status).toBe('incomplete');
        const done = events.filter((e) => e.type === 'response.output_item.done' && e.item.type === 'message');
        expect(done.map((e) => e.item.status)).toEqual(['incomplete']);
        expect(last.response.output.find((i: any) => i.type === 'message').status).toBe('incomplete');
        expect((await client.responses.retrieve(last.response.id)).output.find((i) => i.type === 'message')).toMatchObject({ status: 'incomplete' });

        const body = await client.responses.create({ model, input: 'Tell me a story', max_output_tokens: 16 });
        expect(body.status).toBe('incomplete');
        expect(body.output.find((i) => i.type === 'message')).toMatchObject({ status: 'incomplete' });
        expect((await client.responses.retrieve(body.id)).output.find((i) => i.type === 'message')).toMatchObject({ status: 'incomplete' });
      });
    }

    it('a completed answer keeps its items completed', async () => {
      h.respond = replay('anthropic', 'text');
      const body = await client.responses.create({ model: 'anthropic/claude-sonnet-4.5', input: 'hi', store: false });
      expect(body.status).toBe('completed');
      expect(body.output.find((i) => i.type === 'message')).toMatchObject({ status: 'completed' });
    });
  });

  it('background: true and conversation are a 400 naming the parameter, and nothing is sent upstream', async () => {
    h.respond = replay('anthropic', 'text');
    const before = h.upstream.requests.length;
    for (const [extra, param] of [[{ background: true }, 'background'], [{ conversation: 'conv_123' }, 'conversation'], [{ conversation: { id: 'conv_123' } }, 'conversation']] as const) {
      const err = await client.responses.create({ model: 'anthropic/claude-sonnet-4.5', input: 'hi', ...(extra as object) }).catch((e: unknown) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).error, param).toMatchObject({ type: 'invalid_request_error', param, message: expect.stringContaining(`${param} is not supported`) });
    }
    expect(h.upstream.requests.length).toBe(before);
    // background: false is what OpenAI does by default: answered.
    const res = await client.responses.create({ model: 'anthropic/claude-sonnet-4.5', input: 'hi', background: false, store: false });
    expect(res.status).toBe('completed');
  });

  describe('tool_choice allowed_tools', () => {
    const tools = [tool('get_weather'), tool('get_time'), tool('send_email')];
    const allowed = (mode: 'auto' | 'required') => ({ type: 'allowed_tools' as const, mode, tools: [{ type: 'function', name: 'get_weather' }, { type: 'function', name: 'get_time' }] });

    it('to an Anthropic model: only the allowed tools, mode required → {"type": "any"}, auto → auto', async () => {
      h.respond = replay('anthropic', 'tool_use');
      await client.responses.create({ model: 'anthropic/claude-sonnet-4.5', input: 'Weather?', tools, tool_choice: allowed('required'), store: false });
      expect(upstreamBody().tools.map((t: any) => t.name)).toEqual(['get_weather', 'get_time']);
      expect(upstreamBody().tool_choice).toMatchObject({ type: 'any' });
      await client.responses.create({ model: 'anthropic/claude-sonnet-4.5', input: 'Weather?', tools, tool_choice: allowed('auto'), store: false });
      expect(upstreamBody().tools.map((t: any) => t.name)).toEqual(['get_weather', 'get_time']);
      expect(upstreamBody().tool_choice?.type ?? 'auto').toBe('auto');
    });

    it('to an OpenAI model: forwarded as the client sent it, with every tool', async () => {
      h.respond = (req) => ({ status: 200, json: JSON.parse(readFixture('openai', 'responses_text.json')), ...(req.path.endsWith('/responses') ? {} : { status: 404 }) });
      await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'Weather?', tools, tool_choice: allowed('required'), store: false });
      expect(upstreamBody().tool_choice).toEqual(allowed('required'));
      expect(upstreamBody().tools.map((t: any) => t.name)).toEqual(['get_weather', 'get_time', 'send_email']);
    });
  });

  it('a translated stream closes each item before it opens the next; sequence numbers stay contiguous and finalResponse() is whole', async () => {
    h.respond = replay('anthropic', 'tool_use'); // text, then get_weather, then get_time
    const stream = client.responses.stream({ model: 'anthropic/claude-sonnet-4.5', input: 'Weather and time in San Francisco?', tools: [tool('get_weather'), tool('get_time')], store: false });
    const events = await collect(stream);
    const final = await stream.finalResponse();

    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const itemEvents = events.filter((e) => typeof e.output_index === 'number');
    // Every event of item n comes before item n + 1's first one, and each item ends with output_item.done.
    expect(itemEvents.map((e) => e.output_index)).toEqual([...itemEvents.map((e) => e.output_index)].sort((a, b) => a - b));
    const byItem = new Map<number, any[]>();
    for (const e of itemEvents) byItem.set(e.output_index, [...(byItem.get(e.output_index) ?? []), e]);
    expect([...byItem.keys()]).toEqual([0, 1, 2]);
    for (const [, of] of byItem) {
      expect(of[0].type).toBe('response.output_item.added');
      expect(of.at(-1).type).toBe('response.output_item.done');
    }
    expect(byItem.get(1)!.map((e) => e.type)).toContain('response.function_call_arguments.done');

    expect(final.output.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call']);
    expect(final.output.slice(1)).toMatchObject([
      { name: 'get_weather', call_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', arguments: '{"location": "San Francisco, CA", "unit": "celsius"}', status: 'completed' },
      { name: 'get_time', call_id: 'toolu_01CaQfHTSL6ZJTJcG8yr1aUt', arguments: '{"timezone": "America/Los_Angeles"}', status: 'completed' },
    ]);
    expect(final.output).toMatchObject([...byItem.values()].map((of) => of.at(-1).item)); // the SDK adds parsed_arguments
  });
});
