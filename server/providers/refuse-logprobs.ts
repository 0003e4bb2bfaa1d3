// Log probabilities are an OpenAI Chat Completions feature: an adapter whose upstream (or model) has none
// refuses a request that asks for them, with a 400 naming the parameter and the model, rather than
// answering without them.
import { AppError } from '@/server/errors';
import type { ChatRequest } from './types';

/** Which log-probability parameter the request sets, if any; `logprobs: false` and `top_logprobs: 0` ask for nothing. */
export function requestedLogprobsParam(req: Pick<ChatRequest, 'logprobs' | 'top_logprobs'>): 'logprobs' | 'top_logprobs' | null {
  if (req.logprobs === true) return 'logprobs';
  if (req.top_logprobs !== undefined && req.top_logprobs > 0) return 'top_logprobs';
  return null;
}

/** Throws the 400 when the request asks for log probabilities; `why` ends the message ("Anthropic returns none"). */
export function refuseLogprobs(req: Pick<ChatRequest, 'logprobs' | 'top_logprobs'>, modelId: string, why: string): void {
  const param = requestedLogprobsParam(req);
  if (param) throw new AppError('bad_request', `${param} is not supported for ${modelId}: ${why}`, { model: modelId, param });
}
