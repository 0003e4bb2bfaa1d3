import type { ProviderAdapter } from '@/server/providers/types';
import { convertError } from './convert-error';
import { convertRequest } from './convert-request';
import { convertResponse } from './convert-response';
import { createStreamConverter } from './convert-stream';

/** Anthropic's Messages API (POST /v1/messages), behind the OpenAI-shaped provider spec. */
export const anthropicAdapter: ProviderAdapter = {
  id: 'anthropic',
  convertRequest,
  convertResponse: (body) => convertResponse(body),
  createStreamConverter: () => createStreamConverter(),
  convertError: (status, body, headers) => convertError(status, body, headers),
};
