// Off-the-shelf clients against the gateway through HTTP, used the way their docs show, with the fake
// upstream answering in OpenAI's recorded wire format (server/providers/openai/__fixtures__):
// - the official OpenAI SDK's plain create() without `stream` (it sends Accept: application/json → JSON);
// - Vercel's AI SDK (@ai-sdk/openai-compatible and @openrouter/ai-sdk-provider): generateText,
//   generateObject, streamText with tools. The AI SDK sends no Accept that tells JSON from SSE, so it is
//   configured with the one-line setting the README documents: headers: { Accept: 'application/json' }.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { generateObject, generateText, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '@/test/db';
import { readFixture } from '@/test/fake-upstream';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness, type Responder } from '@/test/gateway-harness';

const MODEL = 'openai/gpt-4o-mini';

/** OpenAI's non-streaming chat.completion (the recorded fixture) with `content` as the assistant's text. */
function openAiAnswer(content: string): Responder {
  return () => {
    const completion = JSON.parse(readFixture('openai', 'text.json'));
    completion.choices[0].message.content = content;
    return { status: 200, json: completion };
  };
}

describeEachDatabase('client SDKs', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await fundedUser(10)).key;
  });
  afterAll(() => h?.close());

  const lastUpstream = () => h.upstream.requests.at(-1)!;

  it('OpenAI SDK: create() without stream answers a ChatCompletion object', async () => {
    h.respond = replay('openai', 'text');
    const client = new OpenAI({ apiKey: key, baseURL: h.baseUrl, maxRetries: 0 });
    const { data, response } = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof data).toBe('object');
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0].message.content).toBe('Hello there, friend!');
    expect((lastUpstream().body as { stream?: boolean }).stream).not.toBe(true);
  });

  it('the rule: stream absent + Accept */* (curl, the AI SDK by default) streams; Accept: application/json answers JSON', async () => {
    h.respond = replay('openai', 'text');
    const post = (accept: string) =>
      fetch(`${h.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] }),
      });
    const anything = await post('*/*');
    expect(anything.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await anything.text()).toContain('data: [DONE]');
    const json = await post('application/json');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await json.json()) as { object: string }).object).toBe('chat.completion');
  });

  function compatible() {
    return createOpenAICompatible({ name: 'switchboard', baseURL: h.baseUrl, apiKey: key, includeUsage: true, supportsStructuredOutputs: true, headers: { Accept: 'application/json' } });
  }

  it('AI SDK (openai-compatible): generateText', async () => {
    h.respond = replay('openai', 'text');
    const result = await generateText({ model: compatible()(MODEL), prompt: 'Say hello', maxRetries: 0 });
    expect(result.text).toBe('Hello there, friend!');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBe(14);
  });

  it('AI SDK (openai-compatible): generateObject with a zod schema', async () => {
    h.respond = openAiAnswer('{"city":"Paris","temperature_c":21}');
    const schema = z.object({ city: z.string(), temperature_c: z.number() });
    const result = await generateObject({ model: compatible()(MODEL), schema, prompt: 'Weather in Paris as JSON', maxRetries: 0 });
    expect(result.object).toEqual({ city: 'Paris', temperature_c: 21 });
    // The AI SDK asked for JSON output; the gateway passed the request on to OpenAI.
    expect((lastUpstream().body as { response_format?: { type: string } }).response_format?.type).toBe('json_schema');
  });

  it('AI SDK (openai-compatible): streamText with tools streams the tool call', async () => {
    h.respond = replay('openai', 'tool_calls');
    const result = streamText({
      model: compatible()(MODEL),
      prompt: 'Weather in Paris and Rome?',
      tools: { get_weather: tool({ description: 'Current weather', inputSchema: z.object({ location: z.string() }) }) },
      maxRetries: 0,
    });
    let deltas = 0;
    for await (const part of result.fullStream) if (part.type === 'tool-input-delta') deltas++;
    const calls = await result.toolCalls;
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]).toMatchObject({ toolName: 'get_weather', input: { location: expect.any(String) } });
    expect(deltas).toBeGreaterThan(0);
    expect(await result.finishReason).toBe('tool-calls');
    const upstreamBody = lastUpstream().body as { stream?: boolean; tools?: { function: { name: string } }[] };
    expect(upstreamBody.stream).toBe(true);
    expect(upstreamBody.tools?.[0].function.name).toBe('get_weather');
  });

  it('AI SDK (OpenRouter provider): generateText and streamText', async () => {
    const openrouter = createOpenRouter({ baseURL: h.baseUrl, apiKey: key, headers: { Accept: 'application/json' } });
    h.respond = replay('openai', 'text');
    const text = await generateText({ model: openrouter.chat(MODEL), prompt: 'Say hello', maxRetries: 0 });
    expect(text.text).toBe('Hello there, friend!');
    const streamed = streamText({ model: openrouter.chat(MODEL), prompt: 'Say hello', maxRetries: 0 });
    expect(await streamed.text).toBe('Hello there, friend!');
    expect((lastUpstream().body as { stream?: boolean }).stream).toBe(true);
  });
});
