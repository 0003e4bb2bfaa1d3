// Azure OpenAI (learn.microsoft.com/azure/ai-foundry/openai/reference): OpenAI's Chat Completions protocol on
// a resource of the operator's, one deployment per model (the endpoint's `upstream_model`). The request and
// answer converters are OpenAI's (server/providers/openai); what differs is the URL (azure-chat-url.ts), the
// credentials (an `api-key` header, or a Microsoft Entra ID bearer token added in `authorize`) and the
// content filter (convert-error.ts; `finish_reason: "content_filter"` is already OpenAI's, and the
// `prompt_filter_results` / `content_filter_results` fields Azure adds are ignored by the loose schemas).
//
// Chat Completions only: deployments of models that OpenAI serves through the Responses API (GPT-5.4 and
// later) are still sent to Chat Completions here, which Azure serves for them with the restrictions OpenAI
// documents (no function tools together with reasoning); the Responses API on Azure is left for later.
import type { ProviderAdapter } from '../types';
import { createAzureOpenAIAdapter } from './create-azure-openai-adapter';

/** Keys only, v1 API: what a provider entry of this type gets when no factory built it one. */
export const azureOpenAIAdapter: ProviderAdapter = createAzureOpenAIAdapter();

export { createAzureOpenAIAdapter, type AzureOpenAIOptions } from './create-azure-openai-adapter';
export { azureChatUrl } from './azure-chat-url';
export { buildAzureOpenAIAdapter } from './build-azure-openai-adapter';
export { convertAzureError } from './convert-error';
export { AZURE_COGNITIVE_SCOPE, createEntraTokenSource, entraTokenUrl, type EntraTokenSource } from './entra-token-source';
