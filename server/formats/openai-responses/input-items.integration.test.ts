// GET /api/v1/responses/{id}/input_items with the official OpenAI SDK (client.responses.inputItems.list): the
// items a stored response was generated from (the previous responses' items first), each with an id, as a cursor
// page the SDK pages through. POST /responses goes through the real node:http gateway; GET through the route
// handlers (the SDK's `fetch` option), as in responses.integration.test.ts.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GET as getResponse } from '@/app/api/v1/responses/[id]/route';
import { GET as listInputItems } from '@/app/api/v1/responses/[id]/input_items/route';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness, type Responder } from '@/test/gateway-harness';

const weatherTool = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };

const responsesApi = (scenario: string): Responder => (req) => {
  if (!req.path.endsWith('/responses')) return { status: 404, json: { error: { message: `unexpected path ${req.path}` } } };
  if (req.body?.stream === true) return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', `${scenario}.chunks.txt`) };
  return { status: 200, json: JSON.parse(readFixture('openai', `${scenario}.json`)) };
};

describeEachDatabase('GET /responses/{id}/input_items', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let other: OpenAI;

  const fetchVia = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const items = /\/api\/v1\/responses\/([^/]+)\/input_items$/.exec(path);
    if (items && request.method === 'GET') return listInputItems(request, { params: Promise.resolve({ id: decodeURIComponent(items[1]!) }) });
    const one = /\/api\/v1\/responses\/([^/]+)$/.exec(path);
    if (one && request.method === 'GET') return getResponse(request, { params: Promise.resolve({ id: decodeURIComponent(one[1]!) }) });
    return fetch(request);
  };
  const raw = async (id: string, query = '', key = client.apiKey) => {
    const res = await fetchVia(`${h.baseUrl}/responses/${id}/input_items${query}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const all = async (id: string, query: OpenAI.Responses.InputItemListParams = {}) => {
    const items: any[] = [];
    for await (const item of client.responses.inputItems.list(id, query)) items.push(item);
    return items;
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    client = new OpenAI({ apiKey: (await fundedUser(10)).key, baseURL: h.baseUrl, maxRetries: 0, fetch: fetchVia });
    other = new OpenAI({ apiKey: (await fundedUser(10)).key, baseURL: h.baseUrl, maxRetries: 0, fetch: fetchVia });
  });
  afterAll(() => h?.close());

  it("lists a response's input, and a continuation's whole conversation under the same ids, latest first, paged by cursor", async () => {
    h.respond = responsesApi('responses_text');
    const first = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'My name is Ada.', instructions: 'Be brief.' });
    const firstItems = await all(first.id);
    expect(firstItems).toEqual([{ id: expect.stringMatching(/^msg_/), type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'My name is Ada.' }] }]);

    const second = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: [{ role: 'user', content: 'What is my name?' }], previous_response_id: first.id });
    // The ids are ours alone: the upstream gets the conversation as before.
    expect((h.upstream.requests.at(-1)!.body as any).input[0]).toEqual({ type: 'message', role: 'user', content: 'My name is Ada.' });

    const page = await raw(second.id);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ object: 'list', has_more: false });
    const items = page.body.data;
    expect(items.map((i: any) => [i.type, i.role])).toEqual([['message', 'user'], ['message', 'assistant'], ['message', 'user']]);
    expect(items[0].content).toEqual([{ type: 'input_text', text: 'What is my name?' }]);
    expect(items[1]).toMatchObject({ id: first.output.at(-1)!.id, status: 'completed', content: [{ type: 'output_text', text: first.output_text }] });
    expect(items[2].id).toBe(firstItems[0].id); // the first response's item keeps its id
    expect(new Set(items.map((i: any) => i.id)).size).toBe(3);
    expect(page.body.first_id).toBe(items[0].id);
    expect(page.body.last_id).toBe(items[2].id);

    // The SDK pages with `after` (the last id of each page) until has_more is false.
    expect((await all(second.id, { limit: 1 })).map((i) => i.id)).toEqual(items.map((i: any) => i.id));
    expect((await all(second.id, { order: 'asc', limit: 2 })).map((i) => i.id)).toEqual([...items].reverse().map((i: any) => i.id));
    const firstPage = await raw(second.id, '?limit=2&order=asc');
    expect(firstPage.body).toMatchObject({ has_more: true, first_id: items[2].id, last_id: items[1].id });
    const before = await raw(second.id, `?order=asc&before=${items[0].id}&limit=1`);
    expect(before.body).toMatchObject({ data: [{ id: items[1].id }], has_more: true });
  });

  it('keeps encrypted reasoning out unless include asks for it', async () => {
    h.respond = responsesApi('responses_tool_call');
    const first = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'Weather in Paris?', tools: [weatherTool], include: ['reasoning.encrypted_content'] });
    const call = first.output.find((i) => i.type === 'function_call') as any;
    h.respond = responsesApi('responses_text');
    const second = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":18}' }], tools: [weatherTool], previous_response_id: first.id });

    const items = await all(second.id, { order: 'asc' });
    expect(items.map((i) => i.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    expect(items[3]).toMatchObject({ id: expect.stringMatching(/^fco_/), call_id: call.call_id, output: '{"temp_c":18}' });
    expect(items[1].encrypted_content).toBeUndefined();
    const withEncrypted = await all(second.id, { order: 'asc', include: ['reasoning.encrypted_content'] });
    expect(withEncrypted[1].encrypted_content).toMatch(/^gAAAA/);
  });

  it("answers another account's response and a missing one with the same 404, and a bad query with a 400 naming it", async () => {
    h.respond = responsesApi('responses_text');
    const res = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'secret' });
    await expect(other.responses.inputItems.list(res.id)).rejects.toMatchObject({ status: 404, error: { type: 'invalid_request_error', message: `Response with id '${res.id}' not found.` } });
    await expect(client.responses.inputItems.list('resp_missing')).rejects.toMatchObject({ status: 404 });
    // store: false keeps nothing to list.
    const unstored = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'hi', store: false });
    await expect(client.responses.inputItems.list(unstored.id)).rejects.toMatchObject({ status: 404 });

    for (const [query, param] of [['?limit=0', 'limit'], ['?limit=101', 'limit'], ['?limit=x', 'limit'], ['?order=up', 'order'], ['?after=msg_nope', 'after']] as const) {
      const bad = await raw(res.id, query);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error, query).toMatchObject({ type: 'invalid_request_error', param });
    }
  });
});
