// Codex CLI's own requests, built from its source (openai/codex codex-rs ResponsesApiRequest and ResponseItem:
// instructions, message items with input_text parts and a developer message, function + custom (freeform
// apply_patch) + hosted tools, tool_choice "auto", parallel_tool_calls false, reasoning {effort, summary:
// "auto"}, store false, stream true, include ["reasoning.encrypted_content"], prompt_cache_key = the thread id,
// text.verbosity). On the next turn Codex sends back the output items it received, without their ids (its
// serializer skips them), plus function_call_output items. Through Switchboard to OpenAI and to Anthropic.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const THREAD = '0199a213-81c0-7800-8aa1-bbab2a035a53';

function codexRequest(model: string, input: unknown[]) {
  return {
    model,
    instructions: 'You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user\'s computer.',
    input,
    tools: [
      {
        type: 'function',
        name: 'shell',
        description: 'Runs a shell command and returns its output.',
        strict: false,
        parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: 'string' }, timeout_ms: { type: 'number' } }, required: ['command'], additionalProperties: false },
      },
      { type: 'custom', name: 'apply_patch', description: 'Use the `apply_patch` tool to edit files.', format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' } },
      { type: 'web_search' },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    stream: true,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: THREAD,
    text: { verbosity: 'medium' },
  };
}

const firstTurn = [
  { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>approval policy: on-request</permissions instructions>' }] },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/home/ada/project</cwd>\n</environment_context>' }] },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] },
];

/** As Codex serializes items it received: ids left out. */
const withoutIds = (items: any[]) => items.map(({ id: _id, status: _status, ...rest }) => rest);

function events(raw: string): any[] {
  return raw
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      const data = JSON.parse(dataLine!.slice('data: '.length));
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
}

describeEachDatabase("Codex CLI's request shape", () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
  });
  afterAll(() => h?.close());

  const post = async (body: unknown) => {
    const res = await fetch(`${h.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    return events(await res.text());
  };
  const sent = () => h.upstream.requests.at(-1)!.body as any;

  it('OpenAI: passed through (custom and hosted tools, verbosity, cache key), reasoning returned byte for byte next turn', async () => {
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'responses_tool_call.chunks.txt') });
    const first = await post(codexRequest('openai/gpt-6.2-sol', firstTurn));
    expect(sent()).toMatchObject({ model: 'gpt-6.2-sol', store: false, stream: true, prompt_cache_key: THREAD, text: { verbosity: 'medium' }, parallel_tool_calls: false });
    expect(sent().tools.map((t: any) => t.type)).toEqual(['function', 'custom', 'web_search']);
    expect(sent().input).toEqual(firstTurn);
    expect(first.at(-1).type).toBe('response.completed');
    const items = first.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    expect(items.map((i) => i.type)).toEqual(['reasoning', 'function_call']);

    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'responses_text.chunks.txt') });
    const call = items[1];
    const second = await post(codexRequest('openai/gpt-6.2-sol', [...firstTurn, ...withoutIds(items), { type: 'function_call_output', call_id: call.call_id, output: 'sunny, 18°C' }]));
    expect(second.at(-1).type).toBe('response.completed');
    const recorded = JSON.parse(readFixture('openai', 'responses_tool_call.json'));
    const reasoning = sent().input.find((i: any) => i.type === 'reasoning');
    expect(reasoning.encrypted_content).toBe(recorded.output[0].encrypted_content);
  });

  it('Anthropic: translated (function and custom tools; hosted ones have no equivalent), streamed back as Responses events; the signed thinking returns next turn', async () => {
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('anthropic', 'thinking_tool_use.chunks.txt') });
    const first = await post(codexRequest('anthropic/claude-sonnet-4.5', firstTurn));
    expect(h.upstream.requests.at(-1)!.path).toBe('/v1/messages');
    expect(sent().tools.map((t: any) => t.name)).toEqual(['shell', 'apply_patch']);
    expect(JSON.stringify(sent().system)).toContain('You are Codex');
    const types = first.map((e) => e.type);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types.at(-1)).toBe('response.completed');
    const items = first.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    expect(items.map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    expect(items[0].encrypted_content).toMatch(/^sbr1\./);
    expect(JSON.parse(items[1].arguments)).toBeTypeOf('object');

    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('anthropic', 'text.chunks.txt') });
    const call = items[1];
    const second = await post(codexRequest('anthropic/claude-sonnet-4.5', [...firstTurn, ...withoutIds(items), { type: 'function_call_output', call_id: call.call_id, output: 'sunny, 18°C' }]));
    expect(second.at(-1).type).toBe('response.completed');
    const assistant = sent().messages.find((m: any) => m.role === 'assistant');
    const signature = JSON.parse(readFixture('anthropic', 'thinking_tool_use.json')).content[0].signature;
    expect(assistant.content[0]).toMatchObject({ type: 'thinking', signature });
    expect(assistant.content.find((b: any) => b.type === 'tool_use').id).toBe(call.call_id);
  });
});
