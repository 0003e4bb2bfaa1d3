// Where a Vertex AI model lives. Sources (cloud.google.com/vertex-ai/docs, read 2026-11-24): REST reference
// "projects.locations.publishers.models" (generateContent, streamGenerateContent, rawPredict,
// streamRawPredict) and "Use Claude models" (partner models): the host is
// https://aiplatform.googleapis.com for the `global` location and https://{location}-aiplatform.googleapis.com
// for a region; the path names the project, location, publisher and model.
import { AppError } from '@/server/errors';

export type VertexPublisher = 'google' | 'anthropic';

export function vertexBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/**
 * Which publisher serves an upstream model: `claude-*` (claude-sonnet-4-5@20250929) is Anthropic's,
 * `gemini-*` (and Google's open `gemma-*`) Google's. The catalog has no field for it and the names are
 * unambiguous; other partner models (Llama, Mistral…) speak other formats and are refused.
 */
export function vertexPublisher(upstreamModel: string): VertexPublisher {
  if (/^claude-/i.test(upstreamModel)) return 'anthropic';
  if (/^(gemini|gemma)-/i.test(upstreamModel)) return 'google';
  throw new AppError('bad_request', `Vertex AI model "${upstreamModel}" is neither a Gemini (gemini-…) nor a Claude (claude-…) model; only those two publishers are supported`, {
    upstream_model: upstreamModel,
  });
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
  const base = p.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  // Claude's versioned ids carry an "@" (claude-sonnet-4-5@20250929), which Google's paths take as is.
  const model = encodeURIComponent(p.model.replace(/^models\//, '')).replace(/%40/g, '@');
  return `${base}/v1/projects/${encodeURIComponent(p.project)}/locations/${encodeURIComponent(p.location)}/publishers/${p.publisher}/models/${model}:${p.action}`;
}
