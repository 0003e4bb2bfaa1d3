// The Gemini (Google AI, v1beta) adapter. Each step is a pure converter in this folder; see types.ts.
import type { ProviderAdapter } from '../types';
import { convertGeminiError } from './convert-error';
import { convertGeminiRequest } from './convert-request';
import { convertGeminiResponse } from './convert-response';
import { createGeminiStreamConverter } from './convert-stream';

export const geminiAdapter: ProviderAdapter = {
  id: 'gemini',
  convertRequest: convertGeminiRequest,
  convertResponse: (body) => convertGeminiResponse(body),
  createStreamConverter: () => createGeminiStreamConverter(),
  convertError: convertGeminiError,
};
