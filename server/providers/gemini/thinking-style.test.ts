import { describe, expect, it } from 'vitest';
import { geminiThinkingStyle } from './thinking-style';

describe('geminiThinkingStyle', () => {
  it('keeps the Gemini 2.5 budget ranges', () => {
    expect(geminiThinkingStyle('gemini-2.5-pro')).toEqual({ kind: 'budget', min: 128, max: 32768, canDisable: false });
    expect(geminiThinkingStyle('gemini-2.5-flash')).toEqual({ kind: 'budget', min: 1, max: 24576, canDisable: true });
    expect(geminiThinkingStyle('models/gemini-2.5-flash-lite')).toEqual({ kind: 'budget', min: 512, max: 24576, canDisable: true });
  });

  it('gives the catalog’s Gemini 4 and 3.8 Flash models low/medium/high, and 3.5 Flash-Lite minimal too', () => {
    for (const name of ['gemini-4-carbon', 'gemini-4-argon', 'gemini-4-hydrogen', 'gemini-3.8-flash', 'gemini-3.7-flash', 'gemini-3.1-pro-preview']) {
      expect(geminiThinkingStyle(name), name).toEqual({ kind: 'level', levels: ['low', 'medium', 'high'] });
    }
    for (const name of ['gemini-3.5-flash-lite', 'gemini-3.6-flash', 'gemini-3-flash-preview']) {
      expect(geminiThinkingStyle(name), name).toEqual({ kind: 'level', levels: ['minimal', 'low', 'medium', 'high'] });
    }
    expect(geminiThinkingStyle('gemini-3-pro-preview')).toEqual({ kind: 'level', levels: ['low', 'high'] });
  });

  it('treats names it cannot read as budget models', () => {
    expect(geminiThinkingStyle('learnlm-2.0-flash').kind).toBe('budget');
    expect(geminiThinkingStyle('gemini-flash-latest').kind).toBe('budget');
  });
});
