import { describe, expect, it } from 'vitest';
import { openAIModelProfile } from './model-profile';

describe('openAIModelProfile', () => {
  it('keeps models before GPT-5.4 on Chat Completions; unknown names with the effort passed through', () => {
    for (const name of ['gpt-4o-mini', 'gpt-4.1-nano', 'gpt-5-chat-latest', 'my-proxy-model']) {
      expect(openAIModelProfile(name), name).toEqual({ api: 'chat' });
    }
  });

  it("knows the efforts of the Chat Completions reasoning models: minimal on GPT-5, none from 5.1, o-series' three", () => {
    for (const name of ['gpt-5-mini', 'gpt-5', 'gpt-5-nano-2025-08-07']) expect(openAIModelProfile(name), name).toEqual({ api: 'chat', efforts: ['minimal', 'low', 'medium', 'high'] });
    for (const name of ['gpt-5.1', 'gpt-5.2']) expect(openAIModelProfile(name), name).toEqual({ api: 'chat', efforts: ['none', 'low', 'medium', 'high'] });
    for (const name of ['o4-mini', 'o3', 'o1']) expect(openAIModelProfile(name), name).toEqual({ api: 'chat', efforts: ['low', 'medium', 'high'] });
    expect(openAIModelProfile('gpt-5-pro')).toEqual({ api: 'chat', efforts: ['high'] });
  });

  it('sends the GPT-6 family to the Responses API; Luna, Sol and 6.1 Terra may stop reasoning, the others cannot', () => {
    for (const name of ['gpt-6-luna', 'gpt-6.1-terra', 'gpt-6-sol']) {
      expect(openAIModelProfile(name), name).toEqual({ api: 'responses', efforts: ['none', 'low', 'medium', 'high'] });
    }
    for (const name of ['gpt-6.2-astra', 'gpt-6.2-sol', 'gpt-6-astra', 'gpt-6.1-sol', 'gpt-6-astra-pro']) {
      expect(openAIModelProfile(name), name).toEqual({ api: 'responses', efforts: ['low', 'medium', 'high'] });
    }
  });

  it('sends GPT-5.4 to 5.6 to the Responses API too (tools with reasoning fail on Chat Completions), effort as given', () => {
    expect(openAIModelProfile('gpt-5.6-sol')).toEqual({ api: 'responses' });
    expect(openAIModelProfile('gpt-5.4')).toEqual({ api: 'responses' });
  });
});
