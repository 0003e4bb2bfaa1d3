// The echo model's non-streaming answer: an OpenAI chat.completion body, read by the openai converter.
import { randomUUID } from 'node:crypto';
import type { ChatRequest } from '../types';
import { echoCompletionTokens, echoUsage, estimatePromptTokens, lastUserText } from './echo-text';

export function completeEcho(req: ChatRequest) {
  const text = lastUserText(req.messages);
  return {
    id: `chatcmpl-echo-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    system_fingerprint: null,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    // Counted as the stream counts them, so a request costs the same streamed or not.
    usage: echoUsage(estimatePromptTokens(req.messages), echoCompletionTokens(text)),
  };
}
