// Reasoning survives tool turns: what the gateway returned as reasoning_details is sent back by the client
// on the next turn, and the provider receives its own signed reasoning again (Anthropic thinking blocks
// first in the assistant turn; Gemini thought signatures on the matching functionCall part).
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const weatherTool = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } };

describeEachDatabase('reasoning continuity across tool turns', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness();
    client = new OpenAI({ apiKey: (await fundedUser(10)).key, baseURL: h.baseUrl, maxRetries: 0 });
  });
  afterAll(() => h?.close());

  async function toolRoundTrip(model: string, provider: string, scenario: string) {
    h.respond = replay(provider, scenario);
    const first = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weatherTool], stream: false });
    const msg = first.choices[0].message as any;
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(msg.reasoning_details?.length).toBeGreaterThan(0);
    h.respond = replay(provider, 'text');
    await client.chat.completions.create({
      model,
      tools: [weatherTool],
      stream: false,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: msg.content, tool_calls: msg.tool_calls, reasoning_details: msg.reasoning_details } as any,
        ...msg.tool_calls.map((c: any) => ({ role: 'tool', tool_call_id: c.id, content: '{"temp_c": 18}' })),
      ],
    });
    return { msg, sent: h.upstream.requests.at(-1)!.body as any };
  }

  it('anthropic: the signed thinking block comes back first in the assistant turn', async () => {
    const { msg, sent } = await toolRoundTrip('anthropic/claude-sonnet-4.5', 'anthropic', 'thinking_tool_use');
    const assistant = sent.messages.find((m: any) => m.role === 'assistant');
    expect(assistant.content[0].type).toBe('thinking');
    expect(assistant.content[0].signature).toBe(msg.reasoning_details.find((d: any) => d.signature).signature);
    expect(assistant.content.some((b: any) => b.type === 'tool_use' && b.id === msg.tool_calls[0].id)).toBe(true);
    const toolResult = sent.messages.at(-1).content[0];
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: msg.tool_calls[0].id });
  });

  it('gemini: the thought signature returns on its functionCall part', async () => {
    const { msg, sent } = await toolRoundTrip('google/gemini-2.5-flash', 'gemini', 'function_call');
    const model = sent.contents.find((c: any) => c.role === 'model');
    const signed = model.parts.find((p: any) => p.functionCall && p.thoughtSignature);
    expect(signed).toBeDefined();
    const detail = msg.reasoning_details.find((d: any) => d.type === 'reasoning.encrypted' && d.id);
    expect(signed.thoughtSignature).toBe(detail.data);
    expect(sent.contents.at(-1).parts[0].functionResponse.name).toBe(signed.functionCall.name);
  });
});
