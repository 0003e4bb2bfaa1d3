// Azure OpenAI's error answers: OpenAI's shape ({"error": {code, message, …}}), plus its content filter. A
// prompt the filter blocks is a 400 with `error.code: "content_filter"` and the categories in
// `error.innererror.content_filter_result` (learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter):
// the client's request is at fault, so it is a 400 for them too, marked `reason: content_filter` so a client
// can tell it from a malformed request. Other codes go through OpenAI's classifier (401 invalid key, 404
// DeploymentNotFound or a missing api-version, 429 with retry-after).
import { clipMessage, convertOpenAIError, parseOpenAIErrorBody, readHeader, type UpstreamHeaders } from '../openai/convert-error';
import type { UpstreamFailure } from '../types';

export function convertAzureError(status: number, body: string, headers: UpstreamHeaders): UpstreamFailure {
  const failure = convertOpenAIError(status, body, headers);
  // Azure's own request id; x-request-id is not always there.
  if (!failure.upstreamRequestId) {
    const id = readHeader(headers, 'apim-request-id');
    if (id) failure.upstreamRequestId = id;
  }
  if (status === 400 && parseOpenAIErrorBody(body)?.code === 'content_filter') {
    const upstream = parseOpenAIErrorBody(body)?.message;
    return {
      ...failure,
      kind: 'bad_request',
      reason: 'content_filter',
      message: upstream ? `Azure's content filter blocked the prompt: ${clipMessage(upstream)}` : "Azure's content filter blocked the prompt",
    };
  }
  return failure;
}
