import { describe, expect, it } from 'vitest';
import { anthropicThinkingStyle } from './thinking-style';

describe('anthropicThinkingStyle', () => {
  it('keeps budgeted thinking and sampling for Claude 4.5 and earlier, and for names it cannot read', () => {
    for (const name of ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-5-20250929', 'claude-opus-4-1', 'claude-opus-4-5', 'claude-3-7-sonnet-latest', 'my-proxy-model']) {
      expect(anthropicThinkingStyle(name), name).toEqual({
        mode: 'budget',
        off: 'omit',
        samplingParams: true,
        forcedToolChoice: true,
        thinksWithForcedTool: false,
        displayOmittedByDefault: false,
        preservedThinking: false,
      });
    }
  });

  it('gives Opus 4.6 and Sonnet 4.6 adaptive thinking with extended thinking\'s other rules (Anthropic and Bedrock ids alike)', () => {
    for (const name of ['claude-opus-4-6', 'claude-sonnet-4-6', 'anthropic.claude-opus-4-6-v1', 'us.anthropic.claude-sonnet-4-6', 'claude-sonnet-4-6@20260217']) {
      expect(anthropicThinkingStyle(name), name).toEqual({
        mode: 'adaptive',
        off: 'omit',
        samplingParams: true,
        forcedToolChoice: true,
        thinksWithForcedTool: false,
        displayOmittedByDefault: false,
        preservedThinking: false,
      });
    }
  });

  it('gives the Claude 5.5 models and Fable 5.1 adaptive thinking without sampling parameters, each with its own way to stop', () => {
    expect(anthropicThinkingStyle('claude-opus-5-5')).toMatchObject({ mode: 'adaptive', off: null, samplingParams: false, forcedToolChoice: false, preservedThinking: true });
    expect(anthropicThinkingStyle('claude-fable-5-1')).toMatchObject({ mode: 'adaptive', off: null, samplingParams: false, forcedToolChoice: false, preservedThinking: true });
    expect(anthropicThinkingStyle('claude-sonnet-5-5')).toMatchObject({ mode: 'adaptive', off: 'between_tools', forcedToolChoice: false, preservedThinking: true });
    expect(anthropicThinkingStyle('claude-haiku-5-5')).toMatchObject({ mode: 'adaptive', off: 'disabled', forcedToolChoice: true, preservedThinking: true });
    for (const name of ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-fable-5-1']) {
      expect(anthropicThinkingStyle(name).displayOmittedByDefault, name).toBe(true);
    }
  });

  it('reads dated and undotted names: Opus 5 and Sonnet 5 may disable thinking, Opus 4.7 thinks only when asked', () => {
    expect(anthropicThinkingStyle('claude-opus-5')).toMatchObject({ mode: 'adaptive', off: 'disabled', forcedToolChoice: true, preservedThinking: false });
    expect(anthropicThinkingStyle('claude-sonnet-5-20260630')).toMatchObject({ mode: 'adaptive', off: 'disabled' });
    expect(anthropicThinkingStyle('claude-opus-4-7-20260416')).toMatchObject({ mode: 'adaptive', off: 'omit', samplingParams: false });
    expect(anthropicThinkingStyle('claude-fable-5')).toMatchObject({ mode: 'adaptive', off: null, preservedThinking: false });
    expect(anthropicThinkingStyle('anthropic.claude-haiku-5-5')).toMatchObject({ off: 'disabled' }); // a Bedrock-style id
  });
});
