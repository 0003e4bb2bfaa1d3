// The echo model's stream, in OpenAI's own chunk format so that the openai stream converter translates
// it exactly as it would a real upstream: role chunk, one chunk per word, finish chunk, usage chunk
// (choices: []), [DONE].
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatRequest, SseEvent } from '../types';
import type { CancelSignal } from '@/server/http/cancel-signal';
import { echoCompletionTokens, echoUsage, estimatePromptTokens, lastUserText, splitWords } from './echo-text';

export interface EchoOptions {
  /** Pause between chunks, to let tests watch a slow stream or disconnect mid-way. Default 0: no timers at all. */
  delayMs?: number;
}

export async function* streamEcho(req: ChatRequest, signal: CancelSignal, options: EchoOptions = {}): AsyncGenerator<SseEvent> {
  const text = lastUserText(req.messages);
  const pieces = splitWords(text);
  const base = { id: `chatcmpl-echo-${randomUUID()}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: req.model, system_fingerprint: null };
  const chunk = (delta: object, finishReason: string | null = null): SseEvent => ({
    data: JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] }),
  });
  const events = function* (): Generator<SseEvent> {
    yield chunk({ role: 'assistant', content: '' });
    for (const piece of pieces) yield chunk({ content: piece });
    yield chunk({}, 'stop');
    yield { data: JSON.stringify({ ...base, choices: [], usage: echoUsage(estimatePromptTokens(req.messages), echoCompletionTokens(text)) }) };
    yield { data: '[DONE]' };
  };

  let first = true;
  for (const event of events()) {
    // Like an aborted fetch body, an aborted echo stream throws the abort reason at its reader.
    signal.throwIfAborted();
    if (!first && options.delayMs) await sleep(options.delayMs, undefined, { signal: signal as AbortSignal }); // Node checks only that `aborted` is there
    first = false;
    yield event;
  }
}
