// Where a chat request for one Azure OpenAI deployment goes. Azure has two API surfaces
// (learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle, read 2026-11-24):
//  - the dated API: {base}/openai/deployments/{deployment}/chat/completions?api-version={v} — `api-version` is
//    required (without it Azure answers 404 "Resource not found"), the deployment is in the path;
//  - the v1 API (GA since August 2025): {base}/openai/v1/chat/completions, no api-version, the deployment
//    named as `model` in the body, as on OpenAI.
// The choice: v1 when base_url already ends in /openai/v1, or when no api_version is given (or it is "v1"):
// v1 is what Microsoft recommends for new work, and a dated version is only meaningful on the old surface.
// The body always carries `model` = the deployment (the dated API ignores it).

const V1_SUFFIX = /\/openai\/v1$/;

export function azureChatUrl(baseUrl: string, deployment: string, apiVersion: string | undefined): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (!isDatedApi(base, apiVersion)) return V1_SUFFIX.test(base) ? `${base}/chat/completions` : `${base}/openai/v1/chat/completions`;
  return `${base}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(apiVersion!)}`;
}

function isDatedApi(baseUrl: string, apiVersion: string | undefined): boolean {
  return !V1_SUFFIX.test(baseUrl.replace(/\/+$/, '')) && apiVersion !== undefined && apiVersion !== 'v1';
}

/**
 * `stream_options` (the final chunk's usage, which streams are billed from) arrived in the dated API with
 * 2024-09-01-preview; 2024-10-21 is the first GA version with it. Older versions (2024-06-01, 2024-02-01…)
 * answer 400 "Unrecognized request argument supplied: stream_options". True when streams cannot be billed
 * on this surface and version.
 */
export function lacksStreamUsage(baseUrl: string, apiVersion: string | undefined): boolean {
  return isDatedApi(baseUrl, apiVersion) && /^\d{4}-\d{2}-\d{2}/.test(apiVersion!) && apiVersion!.slice(0, 10) < '2024-09-01';
}
