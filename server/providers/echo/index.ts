// The built-in `switchboard/echo` model: answers in-process with the last user message, in OpenAI's
// format, so the whole gateway path (metering included) can be exercised without any upstream.
import { AppError } from '@/server/errors';
import { convertOpenAIError } from '../openai/convert-error';
import { convertOpenAIResponse } from '../openai/convert-response';
import { createOpenAIStreamConverter } from '../openai/convert-stream';
import { refuseLogprobs } from '../refuse-logprobs';
import type { ProviderAdapter } from '../types';
import { completeEcho } from './complete-echo';
import { streamEcho, type EchoOptions } from './stream-echo';

export function createEchoAdapter(options: EchoOptions = {}): ProviderAdapter {
  return {
    id: 'echo',
    convertRequest() {
      // There is nothing to send: a gateway that gets here ignored `local`, which is a bug, not a bad request.
      throw new AppError('internal', 'The echo model answers in-process; use adapter.local instead of an upstream request');
    },
    convertResponse: (body) => convertOpenAIResponse(body),
    createStreamConverter: () => createOpenAIStreamConverter(),
    convertError: convertOpenAIError,
    local: {
      check: (req, ctx) => refuseLogprobs(req, ctx.model.id, 'the echo model has no token probabilities'),
      stream: (req, signal) => streamEcho(req, signal, options),
      complete: completeEcho,
    },
  };
}

export const echoAdapter: ProviderAdapter = createEchoAdapter();

export { completeEcho } from './complete-echo';
export { estimatePromptTokens, lastUserText, splitWords } from './echo-text';
export { streamEcho, type EchoOptions } from './stream-echo';
