// store: true when the MODEL'S OUTPUT holds what PostgreSQL/PGlite jsonb refuses (NUL, an unpaired UTF-16
// surrogate): the client's input with such characters is a 400 (responses-validation.integration.test.ts), but
// output cannot be refused, so the stored copy holds U+FFFD in their place. Before stored-responses.ts made the
// row storable, the store failed in the background and the id the client got answered 404 on GET and on
// previous_response_id. Through HTTP: the gateway over node:http, GET /responses/{id} through its route handler.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GET } from '@/app/api/v1/responses/[id]/route';
import { describeEachDatabase } from '@/test/db';
import { readFixture } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness, type Responder } from '@/test/gateway-harness';

const UNSTORABLE_TEXT = 'Paris\u0000 is \ud800 the capital.';
const STORED_TEXT = 'Paris\uFFFD is \uFFFD the capital.';

/** OpenAI's Responses API answering (non-streamed) with `text` as the message's output_text. */
const answering = (text: string): Responder => (req) => {
  if (!req.path.endsWith('/responses')) return { status: 404, json: { error: { message: `unexpected path ${req.path}` } } };
  const body = JSON.parse(readFixture('openai', 'responses_text.json'));
  body.output[0].content[0].text = text;
  return { status: 200, json: body };
};

describeEachDatabase('store: true with NUL and a lone surrogate in the model output', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let key: string;

  const fetchVia = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const match = /\/api\/v1\/responses\/([^/?]+)$/.exec(new URL(request.url).pathname);
    if (match && request.method === 'GET') return GET(request, { params: Promise.resolve({ id: decodeURIComponent(match[1]!) }) });
    return fetch(request);
  };

  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
    client = new OpenAI({ apiKey: key, baseURL: h.baseUrl, maxRetries: 0, fetch: fetchVia });
  });
  afterAll(() => h?.close());

  it('the client gets the output unchanged; the stored copy (U+FFFD in their place) is retrieved and continued', async () => {
    h.respond = answering(UNSTORABLE_TEXT);
    const first = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'Capital of France?' });
    expect((first as any).store).toBe(true);
    expect(first.output_text).toBe(UNSTORABLE_TEXT);

    const got = await fetchVia(`${h.baseUrl}/responses/${first.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(got.status).toBe(200);
    const stored = (await got.json()) as any;
    expect(stored.id).toBe(first.id);
    expect(stored.output[0].content[0].text).toBe(STORED_TEXT);

    h.respond = answering('Ada.');
    const next = await client.responses.create({ model: 'openai/gpt-6.2-sol', input: 'And Germany?', previous_response_id: first.id });
    expect(next.output_text).toBe('Ada.');
    const sent = h.upstream.requests.at(-1)!.body as any;
    expect(sent.input[0]).toEqual({ type: 'message', role: 'user', content: 'Capital of France?' });
    expect(sent.input.some((i: any) => i.type === 'message' && i.role === 'assistant' && i.content[0].text === STORED_TEXT)).toBe(true);
    expect(sent.input.at(-1)).toEqual({ type: 'message', role: 'user', content: 'And Germany?' });
  });
});
