// Where a Vertex AI model lives. Sources (cloud.google.com/vertex-ai/docs, read 2026-11-24): REST reference
// "projects.locations.publishers.models" (generateContent, streamGenerateContent, rawPredict,
// streamRawPredict) and "Use Claude models" (partner models): the host is
// https://aiplatform.googleapis.com for the `global` location and https://{location}-aiplatform.googleapis.com
// for a region; the path names the project, location, publisher and model.
import { AppError } from '@/server/errors';

export type VertexPublisher = 'google' | 'anthropic';
/**
 * The API a Vertex model is reached through: Gemini's generateContent, Claude's rawPredict (Messages), or
 * the OpenAI-compatible Chat Completions endpoint that serves Model Garden's MaaS partner and open models
 * (Llama, Mistral, DeepSeek, Qwen…; cloud.google.com/vertex-ai/generative-ai/docs/maas/call-open-model-apis).
 */
export type VertexApi = 'gemini' | 'claude' | 'chat-completions';

export function vertexBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/**
 * How an upstream model is reached, read from its name as Model Garden writes it: `publisher/model`
 * (meta/llama-3.3-70b-instruct-maas, mistralai/mistral-medium-3, deepseek-ai/deepseek-r1-0528-maas) goes to
 * the Chat Completions endpoint, which takes exactly that id as `model`; a bare `claude-*`
 * (claude-sonnet-4-5@20250929) is Anthropic's rawPredict, a bare `gemini-*` (or Google's open `gemma-*`)
 * generateContent. The catalog has no field for it and the names are unambiguous.
 */
export function vertexApi(upstreamModel: string): VertexApi {
  if (upstreamModel.includes('/')) return 'chat-completions';
  if (/^claude-/i.test(upstreamModel)) return 'claude';
  if (/^(gemini|gemma)-/i.test(upstreamModel)) return 'gemini';
  throw new AppError(
    'bad_request',
    `Vertex AI model "${upstreamModel}" is not a Gemini (gemini-…) or Claude (claude-…) model; give partner and open models as Model Garden names them, publisher/model (e.g. meta/llama-3.3-70b-instruct-maas)`,
    { upstream_model: upstreamModel },
  );
}

/** The publisher of a Gemini or Claude model's path. */
export const vertexPublisher = (api: 'gemini' | 'claude'): VertexPublisher => (api === 'claude' ? 'anthropic' : 'google');

const versionless = (baseUrl: string) => baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');

/** `{base}/v1/projects/{project}/locations/{location}/endpoints/openapi/chat/completions` (the OpenAI-compatible endpoint). */
export function vertexChatCompletionsUrl(baseUrl: string, project: string, location: string): string {
  return `${versionless(baseUrl)}/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/endpoints/openapi/chat/completions`;
}

/**
 * Vertex AI in express mode (an API key instead of OAuth): `{base}/v1/publishers/google/models/{model}:{action}`,
 * no project or location in the path, on the global host (cloud.google.com/vertex-ai/generative-ai/docs/start/
 * express-mode/vertex-ai-express-mode-api-reference).
 */
export function vertexExpressUrl(baseUrl: string, model: string, action: string): string {
  return `${versionless(baseUrl)}/v1/publishers/google/models/${encodeURIComponent(model.replace(/^models\//, ''))}:${action}`;
}

export interface VertexModelPath {
  baseUrl: string;
  project: string;
  location: string;
  publisher: VertexPublisher;
  model: string;
  /** generateContent, streamGenerateContent?alt=sse, rawPredict or streamRawPredict. */
  action: string;
}

/** `{base}/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{action}`. */
export function vertexModelUrl(p: VertexModelPath): string {
  // A base URL given with or without the version segment (a Private Service Connect host, a test fake).
  const base = versionless(p.baseUrl);
  // Claude's versioned ids carry an "@" (claude-sonnet-4-5@20250929), which Google's paths take as is.
  const model = encodeURIComponent(p.model.replace(/^models\//, '')).replace(/%40/g, '@');
  return `${base}/v1/projects/${encodeURIComponent(p.project)}/locations/${encodeURIComponent(p.location)}/publishers/${p.publisher}/models/${model}:${p.action}`;
}
