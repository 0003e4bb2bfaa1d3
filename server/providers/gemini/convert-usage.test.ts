import { describe, expect, it } from 'vitest';
import { convertGeminiUsage } from './convert-usage';

describe('convertGeminiUsage', () => {
  it('adds thoughts to completion and built-in tool results to the prompt', () => {
    expect(
      convertGeminiUsage({
        promptTokenCount: 1200,
        cachedContentTokenCount: 1024,
        candidatesTokenCount: 80,
        toolUsePromptTokenCount: 350,
        thoughtsTokenCount: 400,
        totalTokenCount: 2030,
      }),
    ).toEqual({ promptTokens: 1550, completionTokens: 480, cachedTokens: 1024, cacheWriteTokens: 0, reasoningTokens: 400 });
  });

  it('counts missing fields as zero', () => {
    expect(convertGeminiUsage({ promptTokenCount: 5 })).toEqual({ promptTokens: 5, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });
});
