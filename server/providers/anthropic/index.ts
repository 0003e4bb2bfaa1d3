import type { ProviderAdapter } from '@/server/providers/types';
import { convertError } from './convert-error';
import { convertNativeRequest } from './convert-native-request';
import { convertRequest } from './convert-request';
import { convertResponse } from './convert-response';
import { createStreamConverter } from './convert-stream';

/** Anthropic's Messages API (POST /v1/messages), behind the OpenAI-shaped provider spec. */
export const anthropicAdapter: ProviderAdapter = {
  id: 'anthropic',
  // A /api/v1/messages client's own body passes on nearly unchanged (convert-native-request.ts).
  convertRequest: (req, ctx) => (req.native?.format === 'anthropic-messages' ? convertNativeRequest(req, req.native, ctx) : convertRequest(req, ctx)),
  convertResponse: (body) => convertResponse(body),
  createStreamConverter: () => createStreamConverter(),
  convertError: (status, body, headers) => convertError(status, body, headers),
};
