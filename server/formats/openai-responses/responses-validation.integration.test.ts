// What POST /api/v1/responses refuses, through HTTP (switchboard/echo, no upstream): a known item or tool type
// with a wrongly typed field is a 400 naming the field (it once passed as an "other" item and the converters
// threw: a 500), and unknown item types still pass. Errors are OpenAI's shape: {"error": {message, type, param, code}}.
import { afterAll, beforeAll, expect, it } from 'vitest';
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

});
