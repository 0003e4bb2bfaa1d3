// logprobs / top_logprobs per adapter: passed on where the upstream returns them (OpenAI chat models and
// OpenAI-compatible servers, DeepSeek with thinking off: api-docs.deepseek.com/guides/thinking_mode says
// they "trigger an error" in thinking mode), otherwise a 400 naming the parameter and the model.
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { ChunkWriter, completionBody } from '@/server/gateway/chat-chunks';
import { parseChatRequest } from '@/server/gateway/chat-request-schema';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { anthropicAdapter } from './anthropic';
import { echoAdapter } from './echo';
import { geminiAdapter } from './gemini';
import { openaiAdapter } from './openai';
import { createOpenAICompatibleAdapter, deepseekAdapter } from './openai-compatible';
import { createSseParser } from './sse';
import type { ChatRequest, ProviderAdapter, ResolvedModel, StreamDelta } from './types';
import { EMPTY_USAGE } from './types';

const base: ResolvedModel = { id: 'x/y', provider: 'x', upstreamModel: 'y', contextLength: 128_000, maxOutputTokens: 8_000, supportsReasoning: false, supportsImages: false };
const models = {
  claude: { ...base, id: 'anthropic/claude-haiku-4.5', provider: 'anthropic', upstreamModel: 'claude-haiku-4-5' },
  gemini: { ...base, id: 'google/gemini-2.5-flash', provider: 'gemini', upstreamModel: 'gemini-2.5-flash' },
  gpt4o: { ...base, id: 'openai/gpt-4o-mini', provider: 'openai', upstreamModel: 'gpt-4o-mini' },
  gpt5mini: { ...base, id: 'openai/gpt-5-mini', provider: 'openai', upstreamModel: 'gpt-5-mini', supportsReasoning: true },
  gpt6: { ...base, id: 'openai/gpt-6.2-sol', provider: 'openai', upstreamModel: 'gpt-6.2-sol', supportsReasoning: true },
  deepseek: { ...base, id: 'deepseek/deepseek-v4.1-flash', provider: 'deepseek', upstreamModel: 'deepseek-flash', supportsReasoning: true },
  vllm: { ...base, id: 'lab/llama', provider: 'lab', upstreamModel: 'meta/llama' },
} satisfies Record<string, ResolvedModel>;

const request = (extra: Partial<ChatRequest>): ChatRequest => ({ model: 'x', stream: false, messages: [{ role: 'user', content: 'Hi' }], ...extra });
const convert = (adapter: ProviderAdapter, model: ResolvedModel, extra: Partial<ChatRequest>) =>
  JSON.parse(adapter.convertRequest(request(extra), { model, config: { baseUrl: 'https://upstream.example', apiKey: 'k' } }).body);

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('bad_request');
    return err as AppError;
  }
  throw new Error('expected a 400');
}

describe('logprobs in requests', () => {
  it('OpenAI chat models and OpenAI-compatible servers get them as sent', () => {
    expect(convert(openaiAdapter, models.gpt4o, { logprobs: true, top_logprobs: 3 })).toMatchObject({ logprobs: true, top_logprobs: 3 });
    expect(convert(createOpenAICompatibleAdapter(), models.vllm, { logprobs: true, top_logprobs: 2 })).toMatchObject({ logprobs: true, top_logprobs: 2 });
    // DeepSeek with thinking turned off returns them.
    expect(convert(deepseekAdapter, models.deepseek, { logprobs: true, reasoning: { enabled: false } })).toMatchObject({ logprobs: true, thinking: { type: 'disabled' } });
  });

  it.each([
    ['Anthropic', anthropicAdapter, models.claude],
    ['Gemini', geminiAdapter, models.gemini],
    ['an OpenAI reasoning model on Chat Completions', openaiAdapter, models.gpt5mini],
    ['an OpenAI model on the Responses API', openaiAdapter, models.gpt6],
    ['DeepSeek in thinking mode', deepseekAdapter, models.deepseek],
  ] as const)('%s: a 400 naming the parameter and the model', (_name, adapter, model) => {
    const err = refusal(() => convert(adapter, model, { logprobs: true }));
    expect(err.message).toMatch(new RegExp(`^logprobs is not supported for ${model.id.replace('.', '\\.')}`));
    expect(err.metadata).toEqual({ model: model.id, param: 'logprobs' });
    expect(refusal(() => convert(adapter, model, { top_logprobs: 2 })).message).toMatch(/^top_logprobs is not supported/);
    // Asking for none is no request for them.
    expect(() => convert(adapter, model, { logprobs: false, top_logprobs: 0 })).not.toThrow();
  });

  it('the echo model refuses them in its check (which admission runs before reserving)', () => {
    const err = refusal(() => echoAdapter.local!.check!(request({ logprobs: true }), { model: { ...base, id: 'switchboard/echo' }, config: { baseUrl: '' } }));
    expect(err.message).toMatch(/logprobs is not supported for switchboard\/echo/);
  });

  it('the schema takes n, logprobs and top_logprobs within their ranges', () => {
    const messages = [{ role: 'user', content: 'Hi' }];
    expect(parseChatRequest({ model: 'm', messages, n: 1, logprobs: true, top_logprobs: 20 })).toMatchObject({ n: 1, logprobs: true, top_logprobs: 20 });
    for (const bad of [{ n: 0 }, { n: 1.5 }, { top_logprobs: 21 }, { logprobs: 'yes' }]) expect(() => parseChatRequest({ model: 'm', messages, ...bad })).toThrow(AppError);
  });
});

// Fixtures constructed from OpenAI's Chat Completions reference: choices[].logprobs = {content: [{token,
// logprob, bytes, top_logprobs}], refusal}, on the answer and on each stream chunk's choice.
describe('logprobs in answers', () => {
  const fixture = JSON.parse(readFixture('openai', 'logprobs.json'));

  it('non-streaming: choices[0].logprobs is returned as the upstream sent it', () => {
    const converted = openaiAdapter.convertResponse(fixture, { model: models.gpt4o, config: { baseUrl: '' } });
    expect(converted.logprobs).toEqual(fixture.choices[0].logprobs);
    const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 }, cost: 0 };
    const body = completionBody({ id: 'gen', model: 'm', provider: 'openai', message: converted.message, finishReason: 'stop', logprobs: converted.logprobs, usage });
    expect(body.choices[0]).toMatchObject({ logprobs: fixture.choices[0].logprobs, finish_reason: 'stop' });
    // Absent when not asked for (the usual `"logprobs": null` upstream).
    expect(openaiAdapter.convertResponse(JSON.parse(readFixture('openai', 'text.json')), { model: models.gpt4o, config: { baseUrl: '' } }).logprobs).toBeUndefined();
  });

  it('streaming: each delta carries its chunk logprobs, rendered on the choice beside the delta', () => {
    const converter = openaiAdapter.createStreamConverter({ model: models.gpt4o, config: { baseUrl: '' } });
    const parser = createSseParser();
    const deltas: StreamDelta[] = fixtureChunks('openai', 'logprobs').flatMap((chunk) => parser.push(chunk)).flatMap((ev) => converter.push(ev));
    const withText = deltas.filter((d) => d.content);
    expect(withText.map((d) => d.content)).toEqual(['Hello', '!']);
    expect(withText[0]!.logprobs).toEqual({ content: [fixture.choices[0].logprobs.content[0]], refusal: null });
    const line = new ChunkWriter('gen', 'm', 'openai', 1).delta(withText[0]!);
    const chunk = JSON.parse(line.slice('data: '.length));
    expect(chunk.choices[0]).toEqual({ index: 0, delta: { content: 'Hello' }, logprobs: withText[0]!.logprobs, finish_reason: null });
    expect(converter.done).toBe(true);
    expect(converter.usage).toEqual({ ...EMPTY_USAGE, promptTokens: 9, completionTokens: 2 });
  });
});
