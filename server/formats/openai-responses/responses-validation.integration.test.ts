// What POST /api/v1/responses refuses, through HTTP (switchboard/echo, no upstream): a known item or tool type
// with a wrongly typed field is a 400 naming the field (it once passed as an "other" item and the converters
// threw: a 500), unknown item types still pass, a stored response's text and the previous_response_id lookup
// hold nothing PostgreSQL refuses (NUL once failed the lookup with a 500, and silently failed the store), and the
// messages say what is wrong in this API's terms. Errors are OpenAI's shape: {"error": {message, type, param, code}}.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELETE, GET } from '@/app/api/v1/responses/[id]/route';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const MODEL = 'switchboard/echo';

describeEachDatabase('what /responses refuses', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
  });
  afterAll(() => h?.close());

  const post = (body: unknown, path = '/responses') =>
    fetch(`${h.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** A 400 in OpenAI's shape whose param (and message) name `param`. */
  async function expectBadRequest(body: unknown, param: string | RegExp) {
    const res = await post(body);
    const json = await res.json();
    expect({ status: res.status, body: JSON.stringify(body) }).toEqual({ status: 400, body: JSON.stringify(body) });
    expect(json).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: expect.stringMatching(param), code: 'bad_request' } });
    expect(json.error.message.startsWith(`${json.error.param}: `)).toBe(true);
    return json.error as { message: string; param: string };
  }

  it('a known item type with a wrongly typed field is a 400 naming the field, streamed or not', async () => {
    const user = { role: 'user', content: 'hi' };
    const cases: [unknown[], string][] = [
      ...[5, null, { text: 'x' }, true, [null], [5]].map((content): [unknown[], string] => [[{ role: 'user', content }], 'input.0.content']),
      [[{ role: 'user' }], 'input.0.content'],
      [[{ type: 'message', role: 'user', content: 5 }], 'input.0.content'],
      [[user, { role: 'assistant', content: 5 }], 'input.1.content'],
      [[{ role: 'banana', content: 'x' }], 'input.0.role'],
      ...['function_call_output', 'custom_tool_call_output'].flatMap((type) =>
        [5, null, { text: 'x' }, undefined].map((output): [unknown[], string] => [[user, { type, call_id: 'call_1', output }], 'input.1.output']),
      ),
      ...['x', 5, null].map((summary): [unknown[], string] => [[user, { type: 'reasoning', summary }], 'input.1.summary']),
      [[user, { type: 'reasoning', summary: [null] }], 'input.1.summary.0'],
      [[user, { type: 'reasoning', summary: [1] }], 'input.1.summary.0'],
      ...[5, { a: 1 }, ['gAAA'], true].map((encrypted_content): [unknown[], string] => [[user, { type: 'reasoning', summary: [], encrypted_content }], 'input.1.encrypted_content']),
      [[user, { type: 'reasoning', id: 5, summary: [] }], 'input.1.id'],
      [[user, { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: 5 }], 'input.1.input'],
      [[user, { type: 'function_call', call_id: 'call_1', name: 'f', arguments: { city: 'Paris' } }], 'input.1.arguments'],
    ];
    for (const [input, param] of cases) {
      await expectBadRequest({ model: MODEL, input, store: false }, new RegExp(`^${param.replaceAll('.', '\\.')}$`));
    }
    // Streamed: refused before the stream, the same way.
    const streamed = await expectBadRequest({ model: MODEL, input: [{ role: 'user', content: 5 }], stream: true }, /^input\.0\.content$/);
    expect(streamed.message).toContain('content must be a string or an array of content parts');
  });

  it('tools and tool_choice: a function tool without a valid name, an unknown tool_choice type', async () => {
    await expectBadRequest({ model: MODEL, input: 'hi', tools: [{ type: 'function' }] }, /^tools\.0\.name$/);
    await expectBadRequest({ model: MODEL, input: 'hi', tools: [{ type: 'function', name: 'get weather!' }] }, /^tools\.0\.name$/);
    await expectBadRequest({ model: MODEL, input: 'hi', tools: [{ type: 'custom', name: 5 }] }, /^tools\.0\.name$/);
    await expectBadRequest({ model: MODEL, input: 'hi', tool_choice: { type: 'banana' } }, /^tool_choice$/);
    await expectBadRequest({ model: MODEL, input: 'hi', tool_choice: { type: 'function' } }, /^tool_choice$/);
  });

  it('what OpenAI and Codex send still passes: unknown item and hosted tool types, every tool_choice form, detail "original"', async () => {
    const tools = [
      { type: 'function', name: 'shell', parameters: { type: 'object', properties: {} }, strict: false },
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
      { type: 'web_search' },
    ];
    const input = [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] },
      { role: 'user', content: [{ type: 'input_text', text: 'hi' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'original' }] },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking' }], content: [{ type: 'reasoning_text', text: 'x' }], encrypted_content: null },
      { type: 'message', role: 'assistant', status: 'completed', phase: 'final_answer', content: [{ type: 'output_text', text: 'Hello', annotations: [], logprobs: [] }] },
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
      { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'done' }] },
      { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'ok' },
      { role: 'user', content: 'and now?' },
    ];
    const toolChoices = ['auto', { type: 'function', name: 'shell' }, { type: 'custom', name: 'apply_patch' }, { type: 'web_search_preview' }, { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'shell' }] }, { type: 'mcp', server_label: 'docs' }];
    for (const tool_choice of toolChoices) {
      const res = await post({ model: MODEL, input, tools, tool_choice, store: false });
      expect({ tool_choice, status: res.status }).toEqual({ tool_choice, status: 200 });
    }
  });

  it('input with no item a model can answer says so in terms of input, not messages', async () => {
    for (const input of [[{ type: 'web_search_call', id: 'ws_1', status: 'completed' }], [{ type: 'item_reference', id: 'msg_1' }], [{ type: 'reasoning', summary: [] }]]) {
      const error = await (await post({ model: MODEL, input, store: false })).json();
      expect(error.error).toMatchObject({ type: 'invalid_request_error', param: 'input', code: 'bad_request' });
      expect(error.error.message).toContain(`items of type ${input[0]!.type}`);
      expect(error.error.message).not.toContain('messages');
    }
    const empty = await (await post({ model: MODEL, input: [] })).json();
    expect(empty.error).toMatchObject({ param: 'input', message: expect.stringContaining('input is required') });
  });

  it('NUL: previous_response_id is a 400 whatever store says; with store true nothing PostgreSQL refuses is accepted', async () => {
    for (const store of [true, false]) await expectBadRequest({ model: MODEL, input: 'hi', store, previous_response_id: 'resp_\u0000' }, /^previous_response_id$/);
    for (const field of ['user', 'prompt_cache_key']) await expectBadRequest({ model: MODEL, input: 'hi', store: false, [field]: 'a\u0000' }, new RegExp(`^${field}$`));
    await expectBadRequest({ model: MODEL, input: 'hi', store: false, metadata: { k: 'v\u0000' } }, /^metadata\.k$/);

    const toolTurn = (output: string) => [{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: 'c', name: 'cat', arguments: '{}' }, { type: 'function_call_output', call_id: 'c', output }];
    // Stored: the conversation and the request's settings. The 400 says how to go on (store: false).
    const stored: [Record<string, unknown>, RegExp][] = [
      [{ input: 'x\u0000' }, /^input$/],
      [{ input: [{ role: 'user', content: [{ type: 'input_text', text: 'x\u0000' }] }] }, /^input\.0\.content\.0\.text$/],
      [{ input: toolTurn('bin\u0000ary') }, /^input\.2\.output$/],
      [{ input: 'hi', instructions: 'Be \u0000brief.' }, /^instructions$/],
      [{ input: [{ role: 'user', content: 'hi' }, { type: 'web_search_call', id: 'ws\u0000' }] }, /^input\.1\.id$/],
      [{ input: 'lone \ud83d surrogate' }, /^input$/],
    ];
    for (const [body, param] of stored) {
      const error = await expectBadRequest({ model: MODEL, ...body }, param);
      expect(error.message).toContain('store: false');
    }
    // Not stored, the same request is answered (nothing reaches the database), and an emoji is no lone surrogate.
    const unstored = await post({ model: MODEL, input: toolTurn('bin\u0000ary'), store: false });
    expect(unstored.status).toBe(200);
    const emoji = await post({ model: MODEL, input: 'héllo 😀' });
    expect(emoji.status).toBe(200);
    const { id } = await emoji.json();
    expect(await (await db()).storedResponse.findUnique({ where: { id }, select: { id: true } })).toEqual({ id });
  });

  it('a missing response on GET and DELETE /responses/{id} names no param; on previous_response_id it does', async () => {
    const headers = { authorization: `Bearer ${key}` };
    for (const [handler, method] of [[GET, 'GET'], [DELETE, 'DELETE']] as const) {
      const res = await handler(new Request(`${h.baseUrl}/responses/resp_missing`, { method, headers }), { params: Promise.resolve({ id: 'resp_missing' }) });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { message: "Response with id 'resp_missing' not found.", type: 'invalid_request_error', param: null, code: 'not_found' } });
    }
    const continued = await post({ model: MODEL, input: 'hi', previous_response_id: 'resp_missing' });
    expect(continued.status).toBe(404);
    expect((await continued.json()).error.param).toBe('previous_response_id');
  });

  it('a model id over 256 characters is refused with the limit, on /responses, /chat/completions and /messages', async () => {
    const model = `openai/${'x'.repeat(300)}`;
    const error = await expectBadRequest({ model, input: 'hi' }, /^model$/);
    expect(error.message).toBe('model: model must be at most 256 characters');
    const chat = await post({ model, messages: [{ role: 'user', content: 'hi' }] }, '/chat/completions');
    expect(chat.status).toBe(400);
    expect(JSON.stringify(await chat.json())).toContain('model must be at most 256 characters');
    const messages = await post({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, '/messages');
    expect(messages.status).toBe(400);
    expect(JSON.stringify(await messages.json())).toContain('model must be at most 256 characters');
  });
});
