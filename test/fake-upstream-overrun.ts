// Answers of an upstream that ignores `max_tokens` (some OpenAI-compatible servers do): it generates as
// many tokens as it likes, one per streamed delta, and reports (and would bill) all of them.
import type { FakeResponse } from './fake-upstream';

const chunk = (body: Record<string, unknown>) => `data: ${JSON.stringify({ id: 'chatcmpl-overrun', object: 'chat.completion.chunk', created: 1758710452, model: 'gpt-4o-mini', ...body })}\n\n`;

/** `tokens` deltas of one token each, then finish_reason stop and usage reporting every one of them. */
export function overrunStream(p: { tokens: number; promptTokens?: number; delayMs?: number }): FakeResponse {
  const sse = [chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })];
  for (let i = 0; i < p.tokens; i++) sse.push(chunk({ choices: [{ index: 0, delta: { content: ' tok' }, finish_reason: null }] }));
  sse.push(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
  sse.push(chunk({ choices: [], usage: { prompt_tokens: p.promptTokens ?? 10, completion_tokens: p.tokens, total_tokens: (p.promptTokens ?? 10) + p.tokens } }));
  sse.push('data: [DONE]\n\n');
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse, delayMs: p.delayMs };
}

/** A complete (non-streaming) answer of `tokens` tokens, all of them reported in usage. */
export function overrunCompletion(p: { tokens: number; promptTokens?: number }): FakeResponse {
  const promptTokens = p.promptTokens ?? 10;
  return {
    status: 200,
    json: {
      id: 'chatcmpl-overrun',
      object: 'chat.completion',
      created: 1758710452,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: ' tok'.repeat(p.tokens) }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: p.tokens, total_tokens: promptTokens + p.tokens },
    },
  };
}
