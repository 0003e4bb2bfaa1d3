// The built-in model catalog. Prices are micro-dollars per million tokens (USD list prices of each
// provider: $0.15/M = 150_000). Upstream names are what each provider's API expects.
export interface CatalogEntry {
  id: string;
  name: string;
  description: string;
  provider: string;
  upstreamModel: string;
  contextLength: number;
  maxOutputTokens: number;
  inputPrice: number;
  outputPrice: number;
  cacheReadPrice: number;
  cacheWritePrice: number;
  supportsReasoning: boolean;
  supportsImages: boolean;
  supportsTools: boolean;
}

const M = 1_000_000;
const usd = (perMillion: number) => Math.round(perMillion * M);

export const BUILTIN_MODELS: CatalogEntry[] = [
  {
    id: 'openai/gpt-4o-mini', name: 'OpenAI: GPT-4o mini', description: 'Fast, inexpensive multimodal model.',
    provider: 'openai', upstreamModel: 'gpt-4o-mini', contextLength: 128_000, maxOutputTokens: 16_384,
    inputPrice: usd(0.15), outputPrice: usd(0.6), cacheReadPrice: usd(0.075), cacheWritePrice: 0,
    supportsReasoning: false, supportsImages: true, supportsTools: true,
  },
  {
    id: 'openai/gpt-5-mini', name: 'OpenAI: GPT-5 mini', description: 'Reasoning model, cheaper and faster than GPT-5.',
    provider: 'openai', upstreamModel: 'gpt-5-mini', contextLength: 400_000, maxOutputTokens: 128_000,
    inputPrice: usd(0.25), outputPrice: usd(2), cacheReadPrice: usd(0.025), cacheWritePrice: 0,
    supportsReasoning: true, supportsImages: true, supportsTools: true,
  },
  {
    id: 'anthropic/claude-sonnet-4.5', name: 'Anthropic: Claude Sonnet 4.5', description: 'Frontier model for coding and agents, with extended thinking.',
    provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5', contextLength: 200_000, maxOutputTokens: 64_000,
    inputPrice: usd(3), outputPrice: usd(15), cacheReadPrice: usd(0.3), cacheWritePrice: usd(3.75),
    supportsReasoning: true, supportsImages: true, supportsTools: true,
  },
  {
    id: 'anthropic/claude-haiku-4.5', name: 'Anthropic: Claude Haiku 4.5', description: 'Fast, low-cost Claude model.',
    provider: 'anthropic', upstreamModel: 'claude-haiku-4-5', contextLength: 200_000, maxOutputTokens: 64_000,
    inputPrice: usd(1), outputPrice: usd(5), cacheReadPrice: usd(0.1), cacheWritePrice: usd(1.25),
    supportsReasoning: false, supportsImages: true, supportsTools: true,
  },
  {
    id: 'google/gemini-2.5-flash', name: 'Google: Gemini 2.5 Flash', description: 'Fast thinking model with a 1M-token context.',
    provider: 'gemini', upstreamModel: 'gemini-2.5-flash', contextLength: 1_048_576, maxOutputTokens: 65_536,
    inputPrice: usd(0.3), outputPrice: usd(2.5), cacheReadPrice: usd(0.075), cacheWritePrice: 0,
    supportsReasoning: true, supportsImages: true, supportsTools: true,
  },
  {
    id: 'google/gemini-2.5-pro', name: 'Google: Gemini 2.5 Pro', description: "Google's most capable thinking model.",
    provider: 'gemini', upstreamModel: 'gemini-2.5-pro', contextLength: 1_048_576, maxOutputTokens: 65_536,
    inputPrice: usd(1.25), outputPrice: usd(10), cacheReadPrice: usd(0.31), cacheWritePrice: 0,
    supportsReasoning: true, supportsImages: true, supportsTools: true,
  },
  {
    id: 'deepseek/deepseek-chat', name: 'DeepSeek: DeepSeek V3 (chat)', description: 'General chat model, text only.',
    provider: 'deepseek', upstreamModel: 'deepseek-chat', contextLength: 128_000, maxOutputTokens: 8_192,
    inputPrice: usd(0.28), outputPrice: usd(0.42), cacheReadPrice: usd(0.028), cacheWritePrice: 0,
    supportsReasoning: false, supportsImages: false, supportsTools: true,
  },
  {
    id: 'deepseek/deepseek-reasoner', name: 'DeepSeek: DeepSeek Reasoner', description: 'Reasoning model with visible reasoning, text only.',
    provider: 'deepseek', upstreamModel: 'deepseek-reasoner', contextLength: 128_000, maxOutputTokens: 64_000,
    inputPrice: usd(0.28), outputPrice: usd(0.42), cacheReadPrice: usd(0.028), cacheWritePrice: 0,
    supportsReasoning: true, supportsImages: false, supportsTools: true,
  },
  {
    id: 'switchboard/echo', name: 'Switchboard: Echo', description: 'Built in, no network: streams back your last message. For trying things out and benchmarks.',
    provider: 'echo', upstreamModel: 'echo', contextLength: 1_000_000, maxOutputTokens: 100_000,
    inputPrice: usd(1), outputPrice: usd(1), cacheReadPrice: 0, cacheWritePrice: 0,
    supportsReasoning: false, supportsImages: true, supportsTools: false,
  },
];
