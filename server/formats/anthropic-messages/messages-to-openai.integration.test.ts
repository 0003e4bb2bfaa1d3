// /messages (and /chat/completions) to OpenAI models through HTTP, with Anthropic's official SDK as the
// client: what reaches OpenAI (reasoning effort, documents by URL, search results), what the client reads
// back (the model's id, message_start's usage, Anthropic's request-id header). Both OpenAI APIs are faked:
// gpt-5-mini is served through Chat Completions, gpt-6.2-sol through the Responses API (model-profile.ts).
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness, type Responder } from '@/test/gateway-harness';
import { countTokensLocally } from './count-tokens-locally';
import { convertMessagesRequest } from './convert-messages-request';
import { parseMessagesRequest } from './messages-request-schema';

/** Chat Completions' recorded answer, or the Responses API's, by the path the gateway posted to. */
const openai: Responder = (req) => replay('openai', req.path.endsWith('/responses') ? 'responses_text' : 'text')(req);

describeEachDatabase('/messages to OpenAI models', () => {
  let h: GatewayHarness;
  let client: Anthropic;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
    client = new Anthropic({ apiKey: key, baseURL: h.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
  });
  afterAll(() => h?.close());
  const sent = () => h.upstream.requests.at(-1)!.body as Record<string, any>;
  const hi = [{ role: 'user' as const, content: 'Hi' }];

  it("thinking off is the model's lowest effort, a budget an effort by its share of max_tokens (Chat Completions)", async () => {
    h.respond = openai;
    await client.messages.create({ model: 'openai/gpt-5-mini', max_tokens: 16_000, thinking: { type: 'disabled' }, messages: hi });
    expect(h.upstream.requests.at(-1)!.path).toBe('/v1/chat/completions');
    expect(sent().reasoning_effort).toBe('minimal');
    await client.messages.create({ model: 'openai/gpt-5-mini', max_tokens: 16_000, messages: hi }); // no thinking: off, as at Anthropic
    expect(sent().reasoning_effort).toBe('minimal');
    await client.messages.create({ model: 'openai/gpt-5-mini', max_tokens: 16_000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: hi });
    expect(sent().reasoning_effort).toBe('minimal');
    await client.messages.create({ model: 'openai/gpt-5-mini', max_tokens: 16_000, thinking: { type: 'enabled', budget_tokens: 8000 }, messages: hi });
    expect(sent().reasoning_effort).toBe('medium');
    await client.messages.create({ model: 'openai/gpt-5-mini', max_tokens: 16_000, thinking: { type: 'enabled', budget_tokens: 14_000 }, messages: hi });
    expect(sent()).toMatchObject({ reasoning_effort: 'high', max_completion_tokens: 16_000 });
  });

  it('a thinking budget reaches the Responses API as an effort the model takes (gpt-6.2-sol: low, never dropped)', async () => {
    h.respond = openai;
    await client.messages.create({ model: 'openai/gpt-6.2-sol', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: hi });
    expect(h.upstream.requests.at(-1)!.path).toBe('/v1/responses');
    expect(sent().reasoning).toEqual({ effort: 'low', summary: 'auto' });
    await client.messages.create({ model: 'openai/gpt-6.2-sol', max_tokens: 16_000, thinking: { type: 'enabled', budget_tokens: 12_000 }, messages: hi });
    expect(sent().reasoning).toEqual({ effort: 'high', summary: 'auto' });
  });

  it('/chat/completions: reasoning {enabled: false} and {max_tokens} adjust the effort too', async () => {
    h.respond = openai;
    const post = (body: Record<string, unknown>) =>
      fetch(`${h.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-5-mini', stream: false, messages: hi, ...body }),
      });
    expect((await post({ reasoning: { enabled: false } })).status).toBe(200);
    expect(sent().reasoning_effort).toBe('minimal');
    expect((await post({ reasoning: { max_tokens: 3000 }, max_tokens: 10_000 })).status).toBe(200);
    expect(sent().reasoning_effort).toBe('low');
    expect((await post({ reasoning: { enabled: false }, model: 'openai/gpt-6.2-sol' })).status).toBe(200);
    expect(sent().reasoning.effort).toBe('low');
  });

  it('a document by URL: file_url on the Responses API; a 400 naming it and the model on Chat Completions, nothing sent', async () => {
    h.respond = openai;
    const content = [{ type: 'document' as const, source: { type: 'url' as const, url: 'https://example.com/report.pdf' }, title: 'report.pdf' }, { type: 'text' as const, text: 'Summarise' }];
    await client.messages.create({ model: 'openai/gpt-6.2-sol', max_tokens: 500, messages: [{ role: 'user', content }] });
    expect(sent().input[0].content[0]).toEqual({ type: 'input_file', filename: 'report.pdf', file_url: 'https://example.com/report.pdf' });
    expect(JSON.stringify(sent())).not.toContain('file_data');

    const before = h.upstream.requests.length;
    const err = await client.messages.create({ model: 'openai/gpt-5-mini', max_tokens: 500, messages: [{ role: 'user', content }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const message = (err as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { type: string; message: string } };
    expect(message.error.type).toBe('invalid_request_error');
    expect(message.error.message).toContain('document given by URL (https://example.com/report.pdf)');
    expect(message.error.message).toContain('openai/gpt-5-mini');
    expect(h.upstream.requests.length).toBe(before);

    // The same file part from a Chat Completions client.
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-5-mini', stream: false, messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'https://example.com/report.pdf' } }] }] }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain('openai/gpt-5-mini');
    expect(h.upstream.requests.length).toBe(before);
  });

  it('a search_result block reaches a non-Anthropic model as text: title, source and content', async () => {
    h.respond = openai;
    const result = { type: 'search_result' as const, source: 'https://kb.example.com/42', title: 'Refund policy', content: [{ type: 'text' as const, text: 'Refunds within 30 days.' }], citations: { enabled: true } };
    await client.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: [result, { type: 'text', text: 'Refund?' }] }] });
    expect(sent().messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Search result: Refund policy\nSource: https://kb.example.com/42\n\nRefunds within 30 days.' }, { type: 'text', text: 'Refund?' }],
    });
  });

  it("message_start's input_tokens is the tokenizer's count of the prompt, not 4 bytes a token", async () => {
    h.respond = openai;
    const long = 'hello world '.repeat(500);
    for (const text of ['hi', long]) {
      const body = { model: 'openai/gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user' as const, content: text }] };
      const starts: number[] = [];
      const stream = client.messages.stream(body);
      // Read at once: the SDK goes on to update the same usage object from message_delta.
      stream.on('streamEvent', (e) => void (e.type === 'message_start' && starts.push(e.message.usage.input_tokens)));
      await stream.finalMessage();
      const counted = await countTokensLocally(convertMessagesRequest(parseMessagesRequest(body), body));
      expect(starts, text.slice(0, 20)).toEqual([counted]);
    }
    // "hello world " is ~2 tokens for 12 bytes: the byte estimate said 1500.
    expect(await countTokensLocally({ messages: [{ role: 'user', content: long }] })).toBeLessThan(1100);
  });

  it('answers with the canonical id of the model, as /chat/completions does (Anthropic too names the resolved model)', async () => {
    h.respond = replay('anthropic', 'text');
    const message = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: hi });
    expect(message.model).toBe('anthropic/claude-sonnet-4.5');
    const stream = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: hi });
    const starts: string[] = [];
    stream.on('streamEvent', (e) => void (e.type === 'message_start' && starts.push(e.message.model)));
    expect((await stream.finalMessage()).model).toBe('anthropic/claude-sonnet-4.5');
    expect(starts).toEqual(['anthropic/claude-sonnet-4.5']);
    h.respond = replay('openai', 'text'); // DeepSeek speaks Chat Completions
    expect((await client.messages.create({ model: 'deepseek/deepseek-chat', max_tokens: 100, messages: hi })).model).toBe('deepseek/deepseek-v4.1-flash');
  });

  it("errors and count_tokens carry Anthropic's request-id header (the SDK's requestID), the same as x-request-id", async () => {
    const err = await client.messages.create({ model: 'claude-nonexistent-9', max_tokens: 10, messages: hi }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    const requestID = (err as InstanceType<typeof Anthropic.NotFoundError>).requestID;
    expect(requestID).toMatch(/^req_/);
    expect((err as InstanceType<typeof Anthropic.NotFoundError>).headers?.get('x-request-id')).toBe(requestID);

    const bad = await fetch(`${h.baseUrl}/messages`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', messages: hi }) });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('request-id')).toBe(bad.headers.get('x-request-id'));
    expect((await bad.json()).request_id).toBe(bad.headers.get('request-id'));

    const counted = await fetch(`${h.baseUrl}/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: hi }) });
    expect(counted.status).toBe(200);
    expect(counted.headers.get('request-id')).toMatch(/^req_/);
    expect(counted.headers.get('request-id')).toBe(counted.headers.get('x-request-id'));
    const refused = await fetch(`${h.baseUrl}/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': 'sk-sb-v1-wrong', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: hi }) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('request-id')).toBe(refused.headers.get('x-request-id'));
  });

  it("answers, streamed or not, carry request-id too: the SDK's message._request_id", async () => {
    h.respond = openai;
    const message = await client.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 100, messages: hi });
    expect(message._request_id).toMatch(/^req_/);
    const { response } = await client.messages.create({ model: 'openai/gpt-4o-mini', max_tokens: 100, messages: hi, stream: true }).withResponse();
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(response.headers.get('request-id')).toBe(response.headers.get('x-request-id'));
    await response.body?.cancel();
  });
});

