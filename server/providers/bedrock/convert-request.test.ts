// Converse request bodies built from OpenAI-shaped requests; expected shapes follow AWS's API reference
// (API_runtime_Converse "Request Syntax", API_runtime_ContentBlock, API_runtime_ToolConfiguration).
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { chatRequestSchema, type ChatRequest } from '@/server/gateway/chat-request-schema';
import type { ResolvedModel } from '@/server/providers/types';
import { documentName } from './convert-messages';
import { convertBody, convertRequest } from './convert-request';

const model: ResolvedModel = { id: 'test/claude', provider: 'bedrock', upstreamModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', contextLength: 200_000, maxOutputTokens: 8_000, supportsReasoning: true, supportsImages: true };
const nova: ResolvedModel = { ...model, id: 'test/nova', upstreamModel: 'amazon.nova-pro-v1:0', supportsReasoning: false };
// The schema alone (not parseChatRequest), so that requests the gateway refuses earlier can reach the converter.
const req = (body: object) => chatRequestSchema.parse({ model: 'test/claude', messages: [{ role: 'user', content: 'hi' }], stream: false, ...body }) as ChatRequest;
const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } };

describe('bedrock convertRequest', () => {
  it('URL-encodes the model id into /model/{id}/converse(-stream); a key goes as Bearer', () => {
    const ctx = { model, config: { baseUrl: 'https://bedrock-runtime.eu-west-1.amazonaws.com/', apiKey: 'ABSK-key' } };
    const plain = convertRequest(req({}), ctx);
    expect(plain.url).toBe('https://bedrock-runtime.eu-west-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse');
    expect(plain.headers.authorization).toBe('Bearer ABSK-key');
    const arn = convertRequest(req({ stream: true }), { model: { ...model, upstreamModel: 'arn:aws:bedrock:us-east-1:123:inference-profile/x' }, config: { baseUrl: 'http://vpc' } });
    expect(arn.url).toBe('http://vpc/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123%3Ainference-profile%2Fx/converse-stream');
    expect(arn.headers.authorization).toBeUndefined();
  });

  it('merges same-role turns, puts tool results first, declares tools and the tool choice', () => {
    const body = convertBody(
      req({
        tools: [tool],
        tool_choice: { type: 'function', function: { name: 'lookup' } },
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'lookup', arguments: '' } }] },
          { role: 'user', content: 'and also' },
          { role: 'tool', tool_call_id: 't1', content: 'plain text' },
        ],
      }),
      nova,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'a' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'lookup', input: {} } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'plain text' }] } }, { text: 'and also' }] },
    ]);
    expect(body.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: tool.function.parameters } } }], toolChoice: { tool: { name: 'lookup' } } });
  });

  it('tool_choice none with a tool history still declares the tools used (Converse requires toolConfig), without a choice', () => {
    const body = convertBody(
      req({
        tool_choice: 'none',
        tools: [tool],
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 't1', content: '' },
        ],
      }),
      nova,
    );
    expect(body.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }] });
    expect((body.messages as { content: unknown[] }[])[2]!.content).toEqual([{ toolResult: { toolUseId: 't1', content: [{ text: '(no output)' }] } }]);
  });

  it('maps sampling to inferenceConfig (temperature clamped to 0–1; Claude gets not both temperature and topP)', () => {
    expect(convertBody(req({ temperature: 1.6, top_p: 0.9, max_tokens: 50, stop: 'x' }), nova).inferenceConfig).toEqual({ maxTokens: 50, temperature: 1, topP: 0.9, stopSequences: ['x'] });
    expect(convertBody(req({ temperature: 0.2, top_p: 0.9, reasoning: { enabled: false } }), model).inferenceConfig).toEqual({ maxTokens: 8_000, temperature: 0.2 });
  });

  it('Claude thinking: a budget from reasoning effort, no temperature; other models never get the field', () => {
    const body = convertBody(req({ reasoning_effort: 'low', temperature: 0.3 }), model);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 8_000 });
    expect(convertBody(req({ reasoning_effort: 'low' }), { ...nova, supportsReasoning: true }).additionalModelRequestFields).toBeUndefined();
  });

  it('replays only reasoning Bedrock signed; Anthropic-API signatures are dropped', () => {
    const body = convertBody(
      req({
        reasoning: { enabled: false },
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: 'a',
            reasoning_details: [
              { type: 'reasoning.text', text: 'mine', signature: 'sig-b', format: 'bedrock-anthropic-v1', index: 0 },
              { type: 'reasoning.text', text: 'theirs', signature: 'sig-a', format: 'anthropic-claude-v1', index: 1 },
              { type: 'reasoning.encrypted', data: 'cmVk', format: 'bedrock-anthropic-v1', index: 2 },
            ],
          },
          { role: 'user', content: 'q2' },
        ],
      }),
      model,
    );
    expect((body.messages as { content: unknown[] }[])[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'mine', signature: 'sig-b' } } },
      { reasoningContent: { redactedContent: 'cmVk' } },
      { text: 'a' },
    ]);
  });

  it('request-level cache_control marks the last tool, the system prompt and the last user turn; more than 4 points is a 400', () => {
    const body = convertBody(req({ tools: [tool], cache_control: { type: 'ephemeral' }, messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] }), model);
    const point = { cachePoint: { type: 'default' } };
    expect(body.system).toEqual([{ text: 's' }, point]);
    expect((body.toolConfig as { tools: unknown[] }).tools.at(-1)).toEqual(point);
    expect(body.messages).toEqual([{ role: 'user', content: [{ text: 'u' }, point] }]);
    const marked = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    expect(() => convertBody(req({ messages: [{ role: 'user', content: [marked, marked, marked, marked, marked] }] }), model)).toThrow(/at most 4/);
  });

  it('refuses what Converse cannot carry: http image URLs, images for a text-only model, a leading assistant turn', () => {
    const image = (url: string) => req({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });
    expect(() => convertBody(image('https://example.com/a.png'), model)).toThrow(AppError);
    expect(() => convertBody(image('data:image/png;base64,AAAA'), { ...model, supportsImages: false })).toThrow(/does not accept images/);
    expect(() => convertBody(req({ messages: [{ role: 'assistant', content: 'hi' }] }), model)).toThrow(/start with a user message/);
  });

  it('reduces file names to the characters Bedrock allows in a document name', () => {
    expect(documentName('Q3_report  v2.final.pdf', 0)).toBe('Q3-report v2-final');
    expect(documentName(undefined, 1)).toBe('document-2');
  });
});
