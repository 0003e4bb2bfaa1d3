// PDF file parts through each adapter: the mapping each provider documents (Anthropic "PDF support": a
// base64 `document` block; Gemini "Document understanding": `inlineData` with application/pdf; OpenAI
// "File inputs": `{type:'file', file:{filename, file_data}}` on Chat Completions, `input_file` on Responses),
// and a 400 for what a provider cannot read (an OpenAI `file_id` anywhere but OpenAI).
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { pdfDataUrl } from '@/test/fixtures/pdf';
import { anthropicAdapter } from './anthropic';
import { geminiAdapter } from './gemini';
import { openaiAdapter } from './openai';
import { deepseekAdapter } from './openai-compatible';
import type { ChatRequest, ContentPart, ProviderAdapter, ResolvedModel } from './types';

const base: ResolvedModel = { id: 'x/y', provider: 'x', upstreamModel: 'y', contextLength: 1_000_000, maxOutputTokens: 8_000, supportsReasoning: false, supportsImages: true };
const claude: ResolvedModel = { ...base, id: 'anthropic/claude-haiku-4.5', provider: 'anthropic', upstreamModel: 'claude-haiku-4-5' };
const gemini: ResolvedModel = { ...base, id: 'google/gemini-2.5-flash', provider: 'gemini', upstreamModel: 'gemini-2.5-flash' };
const gpt4o: ResolvedModel = { ...base, id: 'openai/gpt-4o-mini', provider: 'openai', upstreamModel: 'gpt-4o-mini' };
const gpt6: ResolvedModel = { ...base, id: 'openai/gpt-6.2-sol', provider: 'openai', upstreamModel: 'gpt-6.2-sol', supportsReasoning: true };
const deepseek: ResolvedModel = { ...base, id: 'deepseek/deepseek-v4.1-flash', provider: 'deepseek', upstreamModel: 'deepseek-flash', supportsReasoning: true };

const PDF = pdfDataUrl(2);
const PDF_BASE64 = PDF.slice(PDF.indexOf(',') + 1);

function upstreamBody(adapter: ProviderAdapter, model: ResolvedModel, parts: ContentPart[], role: 'user' | 'tool' = 'user'): any {
  const messages: ChatRequest['messages'] =
    role === 'user'
      ? [{ role: 'user', content: parts }]
      : [
          { role: 'user', content: 'read it' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'fetch', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: parts },
        ];
  const req: ChatRequest = { model: model.id, stream: false, messages };
  return JSON.parse(adapter.convertRequest(req, { model, config: { baseUrl: 'https://upstream.example', apiKey: 'k' } }).body);
}

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

const filePart = (file: Extract<ContentPart, { type: 'file' }>['file'], extra: Partial<Extract<ContentPart, { type: 'file' }>> = {}): ContentPart => ({ type: 'file', file, ...extra });

describe('PDF input', () => {
  it('Anthropic: a base64 document block titled with the filename, keeping its cache breakpoint', () => {
    const body = upstreamBody(anthropicAdapter, claude, [
      { type: 'text', text: 'Summarise' },
      filePart({ filename: 'report.pdf', file_data: PDF }, { cache_control: { type: 'ephemeral', ttl: '1h' } }),
    ]);
    expect(body.messages[0].content[1]).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 },
      title: 'report.pdf',
      cache_control: { type: 'ephemeral', ttl: '1h' },
    });
  });

  it('Anthropic: documents in tool results too, but not in system messages', () => {
    const body = upstreamBody(anthropicAdapter, claude, [filePart({ file_data: PDF })], 'tool');
    const result = body.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'document', source: { data: PDF_BASE64 } }] });
    const req: ChatRequest = { model: claude.id, stream: false, messages: [{ role: 'system', content: [filePart({ file_data: PDF })] }, { role: 'user', content: 'hi' }] };
    expect(refusal(() => anthropicAdapter.convertRequest(req, { model: claude, config: { baseUrl: 'https://a', apiKey: 'k' } })).message).toMatch(/system messages/);
  });

  it('Gemini: inline data with the PDF MIME type', () => {
    const body = upstreamBody(geminiAdapter, gemini, [{ type: 'text', text: 'Summarise' }, filePart({ filename: 'report.pdf', file_data: PDF })]);
    expect(body.contents[0].parts).toEqual([{ text: 'Summarise' }, { inlineData: { mimeType: 'application/pdf', data: PDF_BASE64 } }]);
  });

  it('OpenAI Chat Completions: the file part as the client sent it, file_id included', () => {
    const body = upstreamBody(openaiAdapter, gpt4o, [filePart({ filename: 'report.pdf', file_data: PDF }), filePart({ file_id: 'file-abc123' })]);
    expect(body.messages[0].content).toEqual([
      { type: 'file', file: { filename: 'report.pdf', file_data: PDF } },
      { type: 'file', file: { file_id: 'file-abc123' } },
    ]);
  });

  it('OpenAI Responses API: input_file items, in messages and in function outputs', () => {
    const body = upstreamBody(openaiAdapter, gpt6, [filePart({ filename: 'report.pdf', file_data: PDF }), filePart({ file_id: 'file-abc123' })]);
    expect(body.input[0].content).toEqual([
      { type: 'input_file', filename: 'report.pdf', file_data: PDF },
      { type: 'input_file', file_id: 'file-abc123' },
    ]);
    const tool = upstreamBody(openaiAdapter, gpt6, [filePart({ file_data: PDF })], 'tool');
    expect(tool.input.at(-1)).toEqual({ type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_file', file_data: PDF }] });
  });

  it.each([
    ['Anthropic', anthropicAdapter, claude],
    ['Gemini', geminiAdapter, gemini],
    ['DeepSeek (OpenAI-compatible)', deepseekAdapter, deepseek],
  ] as const)('%s: a file_id (an upload to OpenAI) is a 400 naming file_id', (_name, adapter, model) => {
    const err = refusal(() => upstreamBody(adapter, model, [filePart({ file_id: 'file-abc123' })]));
    expect(err.message).toMatch(/file_id file-abc123 names a file uploaded to OpenAI/);
    expect(err.metadata).toMatchObject({ param: 'file_id' });
  });

  it.each([
    ['Anthropic', anthropicAdapter, claude],
    ['Gemini', geminiAdapter, gemini],
  ] as const)('%s: file data that is no PDF data URL is a 400', (_name, adapter, model) => {
    expect(refusal(() => upstreamBody(adapter, model, [filePart({ file_data: 'data:text/plain;base64,aGk=' })])).message).toMatch(/PDF data URLs/);
  });
});
