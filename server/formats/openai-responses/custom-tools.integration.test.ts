// Custom (freeform) tools of the Responses API through HTTP, as Codex uses its apply_patch tool
// ({"type":"custom","name":"apply_patch","format":{"type":"grammar","syntax":"lark",…}}):
//  - to Anthropic (fake upstream in Anthropic's wire format): offered as a function tool with one string
//    `input`, the grammar in its description; the model's tool_use comes back as a custom_tool_call item (its
//    input text) in the answer and in the stream (custom_tool_call_input.delta/.done); the call and its
//    custom_tool_call_output go back on the next turn as tool_use and tool_result;
//  - to OpenAI (passthrough, fake Responses API): OpenAI's own custom_tool_call items reach the client.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const GRAMMAR = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?';
const PATCH = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const greeting = "hello";\n+const greeting = "héllo 😀";\n*** End Patch\n';

const tools = [
  { type: 'function', name: 'shell', description: 'Runs a shell command.', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] } },
  { type: 'custom', name: 'apply_patch', description: 'Use the `apply_patch` tool to edit files.', format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR } },
];
const firstTurn = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make the greeting friendlier.' }] }];

const sse = (events: [string, object][]) => events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);

/** Anthropic calling the tool offered for apply_patch, its JSON input cut into fragments as Anthropic streams it. */
function anthropicToolUse(stream: boolean) {
  const input = { input: PATCH };
  const usage = { input_tokens: 420, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 64 };
  const block = { type: 'tool_use', id: 'toolu_01PatchCallXyZ', name: 'apply_patch', input: {} };
  if (!stream) return { status: 200, json: { id: 'msg_01Patch', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ ...block, input }], stop_reason: 'tool_use', stop_sequence: null, usage } };
  const json = JSON.stringify(input);
  const fragments = [json.slice(0, 7), json.slice(7, 40), json.slice(40, json.indexOf('😀') + 1), json.slice(json.indexOf('😀') + 1)];
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    sse: sse([
      ['message_start', { message: { id: 'msg_01Patch', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
      ['content_block_start', { index: 0, content_block: block }],
      ['content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '' } }],
      ...fragments.map((partial_json): [string, object] => ['content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json } }]),
      ['content_block_stop', { index: 0 }],
      ['message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 64 } }],
      ['message_stop', {}],
    ]),
  };
}

/** OpenAI's Responses API answering with a custom_tool_call (its input streamed as text). */
function openAICustomToolCall(stream: boolean) {
  const item = { id: 'ctc_68f2d0aa11', type: 'custom_tool_call', status: 'completed', call_id: 'call_PatchQ7w', name: 'apply_patch', input: PATCH };
  const response = { id: 'resp_68f2d0a9ff', object: 'response', created_at: 1763990000, model: 'gpt-6.2-sol', error: null, incomplete_details: null };
  const usage = { input_tokens: 400, input_tokens_details: { cached_tokens: 0 }, output_tokens: 70, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 470 };
  if (!stream) return { status: 200, json: { ...response, status: 'completed', output: [item], usage } };
  let seq = 0;
  const ev = (type: string, data: object): [string, object] => [type, { sequence_number: seq++, ...data }];
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    sse: sse([
      ev('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }),
      ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', input: '' } }),
      ev('response.custom_tool_call_input.delta', { output_index: 0, item_id: item.id, delta: PATCH.slice(0, 30) }),
      ev('response.custom_tool_call_input.delta', { output_index: 0, item_id: item.id, delta: PATCH.slice(30) }),
      ev('response.custom_tool_call_input.done', { output_index: 0, item_id: item.id, input: PATCH }),
      ev('response.output_item.done', { output_index: 0, item }),
      ev('response.completed', { response: { ...response, status: 'completed', output: [item], usage } }),
    ]),
  };
}

function events(raw: string): any[] {
  return raw
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => JSON.parse(block.split('\n')[1]!.slice('data: '.length)));
}

describeEachDatabase('custom tools on /responses', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
  });
  afterAll(() => h?.close());

  const post = (body: object) =>
    fetch(`${h.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ tools, store: false, ...body }) });
  const sent = () => h.upstream.requests.at(-1)!.body as any;

  it('Anthropic, non-streaming: offered as a function with one string input (grammar in the description); the call comes back as a custom_tool_call', async () => {
    h.respond = (req) => anthropicToolUse(req.body.stream === true);
    const res = await post({ model: 'anthropic/claude-sonnet-4.5', input: firstTurn, tool_choice: { type: 'custom', name: 'apply_patch' } });
    expect(res.status).toBe(200);
    const offered = sent().tools.find((t: any) => t.name === 'apply_patch');
    expect(offered.input_schema).toEqual({ type: 'object', properties: { input: { type: 'string', description: expect.any(String) } }, required: ['input'], additionalProperties: false });
    expect(offered.description).toContain('Use the `apply_patch` tool to edit files.');
    expect(offered.description).toContain(GRAMMAR);
    expect(sent().tool_choice).toEqual({ type: 'tool', name: 'apply_patch' });
    const body = await res.json();
    expect(body.output).toEqual([{ id: expect.stringMatching(/^ctc_/), type: 'custom_tool_call', status: 'completed', call_id: 'toolu_01PatchCallXyZ', name: 'apply_patch', input: PATCH }]);
  });

  it('Anthropic, streaming: custom_tool_call item whose input grows by custom_tool_call_input.delta; the next turn sends call and output back', async () => {
    h.respond = (req) => anthropicToolUse(req.body.stream === true);
    const res = await post({ model: 'anthropic/claude-sonnet-4.5', input: firstTurn, stream: true });
    const all = events(await res.text());
    const added = all.find((e) => e.type === 'response.output_item.added');
    expect(added.item).toMatchObject({ type: 'custom_tool_call', status: 'in_progress', name: 'apply_patch', input: '' });
    const deltas = all.filter((e) => e.type === 'response.custom_tool_call_input.delta');
    expect(deltas.length).toBeGreaterThan(1); // it grows as the arguments stream
    expect(deltas.map((e) => e.delta).join('')).toBe(PATCH);
    expect(all.find((e) => e.type === 'response.custom_tool_call_input.done')).toMatchObject({ item_id: added.item.id, input: PATCH });
    expect(all.some((e) => e.type.startsWith('response.function_call_arguments'))).toBe(false);
    const done = all.find((e) => e.type === 'response.output_item.done').item;
    expect(done).toEqual({ id: added.item.id, type: 'custom_tool_call', status: 'completed', call_id: 'toolu_01PatchCallXyZ', name: 'apply_patch', input: PATCH });
    expect(all.at(-1)).toMatchObject({ type: 'response.completed', response: { output: [done] } });

    // As Codex sends it back: the item without its id, then the tool's output.
    h.respond = (req) => anthropicToolUse(req.body.stream === true);
    const { id: _id, status: _status, ...call } = done;
    const next = await post({ model: 'anthropic/claude-sonnet-4.5', input: [...firstTurn, call, { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Done!' }] });
    expect(next.status).toBe(200);
    const [, assistant, toolResult] = sent().messages;
    expect(assistant.content).toEqual([{ type: 'tool_use', id: 'toolu_01PatchCallXyZ', name: 'apply_patch', input: { input: PATCH } }]);
    expect(toolResult.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01PatchCallXyZ', content: 'Done!' });
  });

  it('OpenAI (passthrough): the custom tool goes up as is, and its custom_tool_call comes back, streaming and not', async () => {
    h.respond = (req) => openAICustomToolCall(req.body.stream === true);
    const res = await post({ model: 'openai/gpt-6.2-sol', input: firstTurn });
    expect(sent().tools[1]).toEqual(tools[1]);
    expect((await res.json()).output).toEqual([{ id: expect.stringMatching(/^ctc_/), type: 'custom_tool_call', status: 'completed', call_id: 'call_PatchQ7w', name: 'apply_patch', input: PATCH }]);

    const all = events(await (await post({ model: 'openai/gpt-6.2-sol', input: firstTurn, stream: true })).text());
    expect(all.filter((e) => e.type === 'response.custom_tool_call_input.delta').map((e) => e.delta).join('')).toBe(PATCH);
    expect(all.find((e) => e.type === 'response.output_item.done').item).toMatchObject({ type: 'custom_tool_call', call_id: 'call_PatchQ7w', name: 'apply_patch', input: PATCH });
    expect(all.at(-1).type).toBe('response.completed');
  });
});
