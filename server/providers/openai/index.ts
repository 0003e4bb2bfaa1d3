// OpenAI Chat Completions (https://platform.openai.com/docs/api-reference/chat). The gateway POSTs the
// UpstreamRequest, then hands the body to convertResponse or, streamed, to a fresh stream converter.
import type { ProviderAdapter } from '../types';
import { convertOpenAIError } from './convert-error';
import { convertOpenAIRequest } from './convert-request';
import { convertOpenAIResponse } from './convert-response';
import { createOpenAIStreamConverter } from './convert-stream';

export const openaiAdapter: ProviderAdapter = {
  id: 'openai',
  convertRequest: convertOpenAIRequest,
  convertResponse: (body) => convertOpenAIResponse(body),
  createStreamConverter: () => createOpenAIStreamConverter(),
  convertError: convertOpenAIError,
};

export { convertOpenAIError, convertOpenAIStreamError, parseRetryAfter, readHeader } from './convert-error';
export { convertOpenAIRequest } from './convert-request';
export { convertOpenAIResponse, type OpenAIDialect } from './convert-response';
export { createOpenAIStreamConverter } from './convert-stream';
export { convertOpenAIUsage } from './convert-usage';
export { mapOpenAIFinishReason } from './map-finish-reason';
