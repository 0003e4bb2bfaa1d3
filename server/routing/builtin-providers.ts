// The built-in providers, configured from their environment variables exactly as before the routing table
// existed (OPENAI_API_KEY, OPENAI_BASE_URL, …): the lowest layer of the table, which CUSTOM_PROVIDERS, the
// operators' admin entries and SWITCHBOARD_CONFIG override by id.
import type { Env } from '@/server/env';
import type { ProviderConfigEntry, ProviderType } from './config-schema';

export const BUILTIN_PROVIDER_IDS: ReadonlySet<string> = new Set(['openai', 'anthropic', 'gemini', 'deepseek', 'mistral', 'xai', 'groq', 'openrouter', 'echo']);

/** Each type's public API. A provider of one of these types with another base URL is someone's own server. */
export const PUBLIC_BASE_URLS: Partial<Record<ProviderType, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
  deepseek: 'https://api.deepseek.com',
  // docs.mistral.ai/api, docs.x.ai/docs/api-reference, console.groq.com/docs/openai, openrouter.ai/docs/api-reference (read 2026-11-24).
  mistral: 'https://api.mistral.ai/v1',
  xai: 'https://api.x.ai/v1',
  groq: 'https://api.groq.com/openai/v1',
  openrouter: 'https://openrouter.ai/api/v1',
};

/** The echo provider answers in-process; this is never fetched. */
export const ECHO_BASE_URL = 'local:';

export interface BuiltinProvider {
  entry: ProviderConfigEntry;
  /** The variable a keyless, unconfigured built-in asks the operator for (the 503 names it). */
  keyVariable?: string;
}

function fromEnv(id: string, type: ProviderType, name: string, keyVariable: string, apiKey: string | undefined, baseUrl: string): BuiltinProvider {
  return {
    // The key's id is the variable's name, so health output and usage records say which variable it came from.
    entry: { id, type, name, base_url: baseUrl, keys: apiKey ? [{ id: keyVariable, key: apiKey, weight: 1 }] : [], headers: {}, supports_stream_options: true, enabled: true },
    keyVariable,
  };
}

export function builtinProviders(e: Env): BuiltinProvider[] {
  return [
    fromEnv('openai', 'openai', 'OpenAI', 'OPENAI_API_KEY', e.OPENAI_API_KEY, e.OPENAI_BASE_URL),
    fromEnv('anthropic', 'anthropic', 'Anthropic', 'ANTHROPIC_API_KEY', e.ANTHROPIC_API_KEY, e.ANTHROPIC_BASE_URL),
    fromEnv('gemini', 'gemini', 'Google Gemini', 'GEMINI_API_KEY', e.GEMINI_API_KEY, e.GEMINI_BASE_URL),
    fromEnv('deepseek', 'deepseek', 'DeepSeek', 'DEEPSEEK_API_KEY', e.DEEPSEEK_API_KEY, e.DEEPSEEK_BASE_URL),
    fromEnv('mistral', 'mistral', 'Mistral AI', 'MISTRAL_API_KEY', e.MISTRAL_API_KEY, e.MISTRAL_BASE_URL),
    fromEnv('xai', 'xai', 'xAI', 'XAI_API_KEY', e.XAI_API_KEY, e.XAI_BASE_URL),
    fromEnv('groq', 'groq', 'Groq', 'GROQ_API_KEY', e.GROQ_API_KEY, e.GROQ_BASE_URL),
    fromEnv('openrouter', 'openrouter', 'OpenRouter', 'OPENROUTER_API_KEY', e.OPENROUTER_API_KEY, e.OPENROUTER_BASE_URL),
    { entry: { id: 'echo', type: 'echo', name: 'Switchboard echo', base_url: undefined, keys: [], headers: {}, supports_stream_options: true, enabled: true } },
  ];
}
