// Provider id (the catalog's `provider` column) → adapter and its configuration from the environment.
// Built once per process, by the runtime (server/runtime), from the environment at that moment.
import { env } from '@/server/env';
import { anthropicAdapter } from './anthropic';
import { customProviders } from './custom-providers';
import { echoAdapter } from './echo';
import { geminiAdapter } from './gemini';
import { openaiAdapter } from './openai';
import { createOpenAICompatibleAdapter, deepseekAdapter } from './openai-compatible';
import type { ProviderAdapter, ProviderConfig } from './types';

export interface ProviderEntry {
  adapter: ProviderAdapter;
  config: ProviderConfig;
  /**
   * Usable: it has an API key, or its base URL was changed from the public default (a local or
   * self-hosted server may need no key). Otherwise requests get a 503 naming the missing variable.
   */
  configured: boolean;
  missing?: string;
}

const DEFAULTS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
  deepseek: 'https://api.deepseek.com',
};

export type ProviderRegistry = ReadonlyMap<string, ProviderEntry>;

function builtin(adapter: ProviderAdapter, baseUrl: string, apiKey: string | undefined, def: string, keyVar: string): ProviderEntry {
  const configured = !!apiKey || baseUrl.replace(/\/$/, '') !== def;
  return { adapter, config: { baseUrl: baseUrl.replace(/\/$/, ''), apiKey }, configured, missing: configured ? undefined : keyVar };
}

export function createProviderRegistry(): ProviderRegistry {
  const e = env();
  const registry = new Map<string, ProviderEntry>([
    ['openai', builtin(openaiAdapter, e.OPENAI_BASE_URL, e.OPENAI_API_KEY, DEFAULTS.openai, 'OPENAI_API_KEY')],
    ['anthropic', builtin(anthropicAdapter, e.ANTHROPIC_BASE_URL, e.ANTHROPIC_API_KEY, DEFAULTS.anthropic, 'ANTHROPIC_API_KEY')],
    ['gemini', builtin(geminiAdapter, e.GEMINI_BASE_URL, e.GEMINI_API_KEY, DEFAULTS.gemini, 'GEMINI_API_KEY')],
    ['deepseek', builtin(deepseekAdapter, e.DEEPSEEK_BASE_URL, e.DEEPSEEK_API_KEY, DEFAULTS.deepseek, 'DEEPSEEK_API_KEY')],
    ['echo', { adapter: echoAdapter, config: { baseUrl: 'local:' }, configured: true }],
  ]);
  for (const p of customProviders()) {
    registry.set(p.id, {
      adapter: createOpenAICompatibleAdapter({ headers: p.headers, supportsStreamOptions: p.supportsStreamOptions }),
      config: { baseUrl: p.baseUrl.replace(/\/$/, ''), apiKey: p.resolvedApiKey },
      configured: true,
    });
  }
  return registry;
}
