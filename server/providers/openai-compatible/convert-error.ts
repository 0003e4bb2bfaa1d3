// Errors of OpenAI-compatible servers: OpenAI's classification, plus what DeepSeek, vLLM and llama.cpp
// say differently.
import { convertOpenAIError, parseOpenAIErrorBody, readHeader, type UpstreamHeaders } from '../openai/convert-error';
import type { UpstreamFailure } from '../types';

// DeepSeek and vLLM answer a too-long prompt with a plain 400 "invalid_request_error"; only the text says
// which 400 it is ("This model's maximum context length is 131072 tokens. However, you requested…").
// llama.cpp has its own type, exceed_context_size_error.
const CONTEXT_LENGTH_MESSAGE = /maximum context length|context length exceeded|exceeds? the (?:available )?context|context window|prompt is too long/i;

export function convertCompatibleError(status: number, body: string, headers: UpstreamHeaders): UpstreamFailure {
  const failure = convertOpenAIError(status, body, headers);
  // DeepSeek sends no x-request-id; its trace id is what their support asks for.
  if (!failure.upstreamRequestId) {
    const traceId = readHeader(headers, 'x-ds-trace-id');
    if (traceId) failure.upstreamRequestId = traceId;
  }
  if (status === 402) {
    // DeepSeek's "Insufficient Balance" is the gateway's account running dry, not the client's fault.
    return { ...failure, kind: 'server_error', message: 'The upstream provider account has run out of credit' };
  }
  if (failure.kind === 'bad_request') {
    const error = parseOpenAIErrorBody(body);
    if (error?.type === 'exceed_context_size_error' || CONTEXT_LENGTH_MESSAGE.test(error?.message ?? '')) {
      return { ...failure, kind: 'context_length_exceeded' };
    }
  }
  return failure;
}
