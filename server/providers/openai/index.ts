// OpenAI (https://platform.openai.com/docs/api-reference): Chat Completions, or the Responses API for the
// models model-profile.ts sends there (GPT-5.4 and later). The gateway POSTs the UpstreamRequest, then
// hands the body to convertResponse or, streamed, to a fresh stream converter — each picked by the same
// profile, so a request and its answer always go through the same API's converters.
import type { ProviderAdapter } from '../types';
import { convertOpenAIError } from './convert-error';
import { convertNativeResponsesRequest, createEitherStreamConverter, isResponsesBody } from './convert-native-request';
import { convertOpenAIRequest } from './convert-request';
import { convertOpenAIResponse } from './convert-response';
import { convertResponsesRequest } from './convert-responses-request';
import { convertResponsesResponse } from './convert-responses-response';
import { createResponsesStreamConverter } from './convert-responses-stream';
import { openAIModelProfile } from './model-profile';

const usesResponses = (upstreamModel: string) => openAIModelProfile(upstreamModel).api === 'responses';

export const openaiAdapter: ProviderAdapter = {
  id: 'openai',
  convertRequest: (req, ctx) => {
    // A /api/v1/responses client's own body goes to the Responses API, for every OpenAI model (passthrough).
    if (req.native?.format === 'openai-responses') return convertNativeResponsesRequest(req, req.native.body, ctx);
    return usesResponses(ctx.model.upstreamModel) ? convertResponsesRequest(req, ctx) : convertOpenAIRequest(req, ctx);
  },
  convertResponse: (body, ctx) => (usesResponses(ctx.model.upstreamModel) || isResponsesBody(body) ? convertResponsesResponse(body) : convertOpenAIResponse(body)),
  // A chat-profile model may have been sent a passthrough request: its stream says which API answered.
  createStreamConverter: (ctx) => (usesResponses(ctx.model.upstreamModel) ? createResponsesStreamConverter() : createEitherStreamConverter()),
  // Both APIs answer errors with the same {"error": {…}} body.
  convertError: convertOpenAIError,
  // Chat Completions' `n`; the Responses API has no such parameter.
  supportsChoices: (ctx) => !usesResponses(ctx.model.upstreamModel),
};

export { convertOpenAIError, convertOpenAIStreamError, parseRetryAfter, readHeader } from './convert-error';
export { convertOpenAIRequest } from './convert-request';
export { convertOpenAIResponse, type OpenAIDialect } from './convert-response';
export { convertResponsesRequest } from './convert-responses-request';
export { convertResponsesResponse } from './convert-responses-response';
export { createResponsesStreamConverter } from './convert-responses-stream';
export { createOpenAIStreamConverter } from './convert-stream';
export { convertOpenAIUsage, convertResponsesUsage } from './convert-usage';
export { mapOpenAIFinishReason } from './map-finish-reason';
export { openAIModelProfile } from './model-profile';
