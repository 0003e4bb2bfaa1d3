import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertGeminiResponse } from './convert-response';

const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8'));
const CALL_ID = /^call_[\w-]{16}$/;

describe('convertGeminiResponse', () => {
  it('converts a plain text answer', () => {
    expect(convertGeminiResponse(fixture('text.json'))).toEqual({
      message: { role: 'assistant', content: "The capital of France is **Paris**. It is also the country's largest city.\n" },
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 18, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      upstreamId: 'lK0SaPm3A4acz7IPw6GwsQw',
    });
  });

  it('converts parallel function calls, with the signature tied to the first call’s id', () => {
    const result = convertGeminiResponse(fixture('function_call.json'));
    const calls = result.message.tool_calls ?? [];
    expect(calls.map((c) => c.id)).toEqual([expect.stringMatching(CALL_ID), expect.stringMatching(CALL_ID)]);
    expect(calls[0].id).not.toBe(calls[1].id);
    const thought = "**Planning the weather lookups**\n\nThe user wants the current weather in both Paris and London. These lookups are independent, so I'll call `get_weather` for each city in parallel.\n\n\n";
    expect(result).toEqual({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: calls[0].id, type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' } },
          { id: calls[1].id, type: 'function', function: { name: 'get_weather', arguments: '{"location":"London","unit":"celsius"}' } },
        ],
        reasoning: thought,
        reasoning_details: [
          { type: 'reasoning.text', text: thought, format: 'google-gemini-v1', index: 0 },
          {
            type: 'reasoning.encrypted',
            data: 'CrEDAVSoXO7lHcP0qB9dS4y2rF8kXw1mZ6tNvJ3aG5eR0uY7iK2oLpQ8sT1vW4xZ9bC3dE6fH0jM5nP2rU7wY1aB4cD8eF2gH6iJ0kL3mN5oP9qR1sT4uV7wX0yZ3aB6cD9eF2gH5iJ8kL1mN4oP7qR0sT3uV6wX9yZ2',
            format: 'google-gemini-v1',
            id: calls[0].id,
            index: 1,
          },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 96, completionTokens: 205, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 167 },
      upstreamId: '4rQSaKj0ILGWz7IP9sKnuQc',
    });
  });

  it('separates thoughts from the answer and surfaces a signature carried by a text part', () => {
    const result = convertGeminiResponse(fixture('thinking.json'));
    expect(result.message.content).toBe('17 + 25 = **42**.');
    expect(result.message.reasoning).toMatch(/^\*\*Adding the numbers\*\*/);
    expect(result.message.reasoning_details).toEqual([
      { type: 'reasoning.text', text: result.message.reasoning, format: 'google-gemini-v1', index: 0 },
      { type: 'reasoning.encrypted', data: expect.stringMatching(/^Ev4MCvsM/), format: 'google-gemini-v1', index: 1 },
    ]);
    expect(result.usage).toEqual({ promptTokens: 14, completionTokens: 607, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 598 });
  });

  it('reports cached prompt tokens as a part of the prompt', () => {
    expect(convertGeminiResponse(fixture('cached.json')).usage).toEqual({
      promptTokens: 12415,
      completionTokens: 282,
      cachedTokens: 11264,
      cacheWriteTokens: 0,
      reasoningTokens: 230,
    });
  });

  it('finishes with content_filter when the candidate was blocked by safety', () => {
    const result = convertGeminiResponse(fixture('safety.json'));
    expect(result).toMatchObject({ message: { role: 'assistant', content: null }, finishReason: 'content_filter' });
    expect(result.error).toBeUndefined();
  });

  it('reports a blocked prompt as content_filter with an error', () => {
    expect(convertGeminiResponse(fixture('prompt_blocked.json'))).toEqual({
      message: { role: 'assistant', content: null },
      finishReason: 'content_filter',
      usage: { promptTokens: 17, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      upstreamId: 'orYSaLy0CYKbz7IPkdXK-A0',
      error: { code: 'content_filter', message: 'Gemini blocked the prompt (SAFETY)' },
    });
  });

  it('finishes with error on MALFORMED_FUNCTION_CALL and keeps an id Gemini did send', () => {
    const malformed = convertGeminiResponse({ candidates: [{ finishReason: 'MALFORMED_FUNCTION_CALL', index: 0 }] });
    expect(malformed).toMatchObject({ finishReason: 'error', error: { code: 'server_error', message: expect.stringContaining('MALFORMED_FUNCTION_CALL') } });

    const withId = convertGeminiResponse({
      candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: 'fc-7', name: 'ping' } }] }, finishReason: 'STOP' }],
    });
    expect(withId.message.tool_calls).toEqual([{ id: 'fc-7', type: 'function', function: { name: 'ping', arguments: '{}' } }]);
  });

  it('rejects a body that is not a GenerateContentResponse', () => {
    expect(() => convertGeminiResponse({ candidates: 'nope' })).toThrow(expect.objectContaining({ code: 'upstream_error' }));
  });
});
