// Event sequences as ConverseStream sends them (API_runtime_ConverseStream "Response Syntax").
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '@/server/providers/types';
import { createStreamConverter } from './convert-stream';

const ev = (event: string, data: object): SseEvent => ({ event, data: JSON.stringify(data) });

describe('bedrock createStreamConverter', () => {
  it('text, a tool without input, stop reason and usage with cache tokens (metadata ends the stream)', () => {
    const c = createStreamConverter();
    const deltas = [
      ev('messageStart', { role: 'assistant' }),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
      ev('contentBlockStop', { contentBlockIndex: 0 }),
      ev('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tu_1', name: 'now' } } }),
      ev('contentBlockStop', { contentBlockIndex: 1 }),
      ev('messageStop', { stopReason: 'tool_use' }),
    ].flatMap((e) => c.push(e));
    expect(deltas).toEqual([
      { content: 'Hi' },
      { tool_calls: [{ index: 0, id: 'tu_1', type: 'function', function: { name: 'now', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{}' } }] },
    ]);
    expect(c.finishReason).toBe('tool_calls');
    expect(c.done).toBe(false);
    c.push(ev('metadata', { usage: { inputTokens: 5, outputTokens: 7, totalTokens: 312, cacheReadInputTokens: 100, cacheWriteInputTokens: 200 } }));
    expect(c.done).toBe(true);
    expect(c.usage).toEqual({ promptTokens: 305, completionTokens: 7, cachedTokens: 100, cacheWriteTokens: 200, reasoningTokens: 0 });
  });

  it('guardrail_intervened is content_filter; redacted reasoning is an encrypted detail', () => {
    const c = createStreamConverter();
    expect(c.push(ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: 'QUJD' } } }))).toEqual([
      { reasoning_details: [{ type: 'reasoning.encrypted', data: 'QUJD', format: 'bedrock-anthropic-v1', index: 0 }] },
    ]);
    c.push(ev('messageStop', { stopReason: 'guardrail_intervened' }));
    expect(c.finishReason).toBe('content_filter');
  });

  it('exception events become mid-stream errors: throttling → rate_limit, others → server_error', () => {
    const throttled = createStreamConverter();
    throttled.push(ev('throttlingException', { message: 'slow down' }));
    expect(throttled.error).toEqual({ code: 'rate_limit', message: 'slow down' });
    const failed = createStreamConverter();
    failed.push(ev('internalServerException', { message: 'oops' }));
    expect(failed.error).toEqual({ code: 'server_error', message: 'oops' });
    const errorFrame = createStreamConverter();
    errorFrame.push(ev('error', { code: 'ThrottlingException', message: 'Rate exceeded' }));
    expect(errorFrame).toMatchObject({ done: true, error: { code: 'rate_limit', message: 'Rate exceeded' } });
  });

  it('an event type it does not know is skipped, not read as an exception', () => {
    const c = createStreamConverter();
    expect(c.push(ev('contentBlockAnnotation', { contentBlockIndex: 0 }))).toEqual([]);
    expect(c).toMatchObject({ done: false, error: null });
  });
});
