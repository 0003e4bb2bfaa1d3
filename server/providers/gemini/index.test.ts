// The reason thought signatures are surfaced at all: a client that sends back what it received must give
// Gemini the same signatures, on the same parts, on the next turn.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../sse';
import type { ChatMessage, ConvertContext, ReasoningDetail, StreamDelta, ToolCall } from '../types';
import { geminiAdapter } from './index';

const read = (name: string) => readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8');

const ctx: ConvertContext = {
  model: { id: 'google/gemini-2.5-flash', provider: 'gemini', upstreamModel: 'gemini-2.5-flash', contextLength: 1_048_576, maxOutputTokens: 65_536, supportsReasoning: true, supportsImages: true },
  config: { baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'k' },
};

/** What an OpenAI/OpenRouter client keeps from a stream: text concatenated, details and calls merged by index. */
function accumulate(deltas: StreamDelta[]): Extract<ChatMessage, { role: 'assistant' }> {
  let content = '';
  const details: ReasoningDetail[] = [];
  const calls: ToolCall[] = [];
  for (const delta of deltas) {
    content += delta.content ?? '';
    for (const d of delta.reasoning_details ?? []) {
      const same = details.find((x) => x.index === d.index);
      if (same?.type === 'reasoning.text' && d.type === 'reasoning.text') {
        same.text += d.text;
        same.signature = d.signature ?? same.signature;
      } else details.push({ ...d });
    }
    for (const c of delta.tool_calls ?? []) calls[c.index] = { id: c.id!, type: 'function', function: { name: c.function.name!, arguments: c.function.arguments! } };
  }
  return { role: 'assistant', content: content || null, tool_calls: calls, reasoning_details: details };
}

function nextTurn(assistant: Extract<ChatMessage, { role: 'assistant' }>) {
  const [paris, london] = assistant.tool_calls ?? [];
  const messages: ChatMessage[] = [
    { role: 'user', content: 'Weather in Paris and London?' },
    assistant,
    { role: 'tool', tool_call_id: paris.id, content: '{"temp_c":18}' },
    { role: 'tool', tool_call_id: london.id, content: '{"temp_c":12}' },
  ];
  return JSON.parse(geminiAdapter.convertRequest({ model: ctx.model.id, stream: true, messages }, ctx).body);
}

const expectedTurn = (signature: string) => [
  { role: 'user', parts: [{ text: 'Weather in Paris and London?' }] },
  {
    role: 'model',
    parts: [
      { text: expect.stringMatching(/^\*\*Planning the weather lookups\*\*/), thought: true },
      { functionCall: { name: 'get_weather', args: { location: 'Paris', unit: 'celsius' } }, thoughtSignature: signature },
      { functionCall: { name: 'get_weather', args: { location: 'London', unit: 'celsius' } } },
    ],
  },
  {
    role: 'user',
    parts: [
      { functionResponse: { name: 'get_weather', response: { temp_c: 18 } } },
      { functionResponse: { name: 'get_weather', response: { temp_c: 12 } } },
    ],
  },
];

describe('geminiAdapter: thought signatures survive a tool turn', () => {
  it('from a non-streaming response', () => {
    const body = JSON.parse(read('function_call.json'));
    const { message } = geminiAdapter.convertResponse(body, ctx);
    const sent = nextTurn({ role: 'assistant', content: message.content, tool_calls: message.tool_calls, reasoning_details: message.reasoning_details });
    expect(sent.contents).toEqual(expectedTurn(body.candidates[0].content.parts[1].thoughtSignature));
  });

  it('from a stream', () => {
    const parser = createSseParser();
    const converter = geminiAdapter.createStreamConverter(ctx);
    const deltas = [...parser.push(read('function_call.chunks.txt')), ...parser.end()].flatMap((e) => converter.push(e));
    const signature = /"thoughtSignature": "([^"]+)"/.exec(read('function_call.chunks.txt'))![1];
    expect(nextTurn(accumulate(deltas)).contents).toEqual(expectedTurn(signature));
  });

  it('is registered as "gemini"', () => {
    expect(geminiAdapter.id).toBe('gemini');
  });
});
