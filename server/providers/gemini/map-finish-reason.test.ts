import { describe, expect, it } from 'vitest';
import { finishReasonError, mapGeminiFinishReason } from './map-finish-reason';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', true, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['IMAGE_SAFETY', false, 'content_filter'],
    ['LANGUAGE', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['UNEXPECTED_TOOL_CALL', false, 'error'],
    ['OTHER', false, 'stop'],
    ['FINISH_REASON_UNSPECIFIED', false, 'stop'],
    ['SOMETHING_NEW', true, 'tool_calls'],
  ])('%s (tool calls: %s) → %s', (reason, hasToolCalls, expected) => {
    expect(mapGeminiFinishReason(reason, hasToolCalls)).toBe(expected);
  });

  it('gives an error only for the reasons that finish with "error"', () => {
    expect(finishReasonError('MALFORMED_FUNCTION_CALL')).toEqual({ code: 'server_error', message: 'Gemini ended the response with MALFORMED_FUNCTION_CALL' });
    expect(finishReasonError('SAFETY')).toBeUndefined();
    expect(finishReasonError('STOP')).toBeUndefined();
  });
});
