import { expect, it } from 'vitest';
import type { RenderContext } from '@/server/gateway/wire-format';
import { EMPTY_USAGE } from '@/server/providers/types';
import { ResponsesStreamWriter } from './render-stream';

const ctx = { generationId: 'gen-abc', requestId: 'req_1', model: 'anthropic/claude', provider: 'anthropic', req: { model: 'x', messages: [], stream: true }, created: 1 } as unknown as RenderContext;
const events = (text: string) => text.split('\n\n').filter(Boolean).map((b) => JSON.parse(b.split('\n')[1]!.slice(6)));

it('thinking, text and a tool call from any provider become Responses items in order, closed before response.completed', () => {
  const w = new ResponsesStreamWriter(ctx);
  let out = w.start();
  out += w.delta({ reasoning: 'Hmm', reasoning_details: [{ type: 'reasoning.text', text: 'Hmm', format: 'anthropic-claude-v1', index: 0 }] });
  out += w.delta({ content: 'Hi' });
  out += w.delta({ tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '' } }] });
  out += w.delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] });
  out += w.finish('tool_calls', { usage: { ...EMPTY_USAGE, promptTokens: 3, completionTokens: 2 }, costMicros: 1500n });
  const evs = events(out);
  expect(evs.map((e) => e.type)).toEqual([
    'response.created', 'response.in_progress',
    'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
    'response.output_item.added', 'response.content_part.added', 'response.output_text.delta',
    'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
    'response.output_item.added', 'response.function_call_arguments.delta',
    'response.function_call_arguments.done', 'response.output_item.done',
    'response.completed',
  ]);
  expect(evs.map((e) => e.sequence_number)).toEqual(evs.map((_, i) => i));
  const done = evs.at(-1).response;
  expect(done.id).toBe('resp_abc');
  expect(done.output.map((i: any) => i.type)).toEqual(['reasoning', 'message', 'function_call']);
  expect(done.output[0].encrypted_content).toBeUndefined(); // not asked for in `include`
  expect(w.items[0]!.encrypted_content).toMatch(/^sbr1\./); // kept for `store`
  expect(done.output[2]).toMatchObject({ call_id: 'toolu_1', name: 'f', arguments: '{"a":1}', status: 'completed' });
  expect(done.usage).toEqual({ input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 5, cost: 0.0015 });
});

it('max tokens → response.incomplete; a failure → response.failed with the error', () => {
  const cut = new ResponsesStreamWriter(ctx);
  cut.start();
  cut.delta({ content: 'Hi' });
  const cutEvents = events(cut.finish('length', { usage: EMPTY_USAGE, costMicros: 0n }));
  const incomplete = cutEvents.at(-1);
  expect(incomplete).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ type: 'message', status: 'incomplete' }] } });
  expect(cutEvents.find((e) => e.type === 'response.output_item.done').item.status).toBe('incomplete');
  const failing = new ResponsesStreamWriter(ctx);
  failing.start();
  const failed = events(failing.error({ code: 'server_error', message: 'boom' }, { usage: EMPTY_USAGE, costMicros: 0n })).at(-1);
  expect(failed).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } });
});

it('two calls in a row: the first is done before the second is added', () => {
  const w = new ResponsesStreamWriter(ctx);
  let out = w.start();
  out += w.delta({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }, { index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '' } }] });
  out += w.delta({ tool_calls: [{ index: 1, function: { arguments: '{"x":1}' } }] });
  out += w.finish('tool_calls', { usage: EMPTY_USAGE, costMicros: 0n });
  const evs = events(out).slice(2, -1);
  expect(evs.map((e) => `${e.type}:${e.output_index}`)).toEqual([
    'response.output_item.added:0', 'response.function_call_arguments.delta:0', 'response.function_call_arguments.done:0', 'response.output_item.done:0',
    'response.output_item.added:1', 'response.function_call_arguments.delta:1', 'response.function_call_arguments.done:1', 'response.output_item.done:1',
  ]);
  expect(w.items.map((i) => i.arguments)).toEqual(['{}', '{"x":1}']);
});
