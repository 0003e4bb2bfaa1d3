// The default model catalog shipped with Switchboard: the built-in providers' current models at their list
// prices, in the file shape of config-schema.ts (USD per million tokens; the compiled table holds micros).
//
// List prices as published by OpenAI (developers.openai.com/api/docs/models/<model>, /pricing,
// /deprecations), Anthropic (platform.claude.com/docs: model pages, pricing, model deprecations), Google
// (ai.google.dev/gemini-api/docs/pricing and /deprecations) and DeepSeek (api-docs.deepseek.com/quick_start/
// pricing), read 2026-11-24 from copies of those pages dated 2026-10-07 … 2026-11-19. Where only a secondary
// source (a gateway's price notes quoting the provider) had a figure, the entry says so.
//
// How prices were chosen, so the gateway never bills less than the provider charges it:
// - A time-limited launch or promotional price that ends soon is not used; the standard price it returns to
//   is (Gemini 4 Argon/Carbon: $2/$10 until 2026-11-30, then $4/$20; Gemini 3.8 Flash: $0.75/$3.75 until
//   2026-12-31, then $1.50/$7.50).
// - DeepSeek bills peak and off-peak hours (off-peak is half); the peak rate is listed.
// - cache_write is what writing the prompt cache costs: Anthropic's 5-minute write (1.25 × input), OpenAI's
//   GPT-6 cache write (30-minute retention, 1.25 × input). Gemini and DeepSeek cache implicitly, at no
//   write charge, and older OpenAI models never charged one: no cache_write there. cache_write_1h is
//   Anthropic's 1-hour write (`ttl: "1h"`, 2 × input on the prompt-caching page's multiplier table).
// - NOT representable with one price per token class, so under-billed until pricing tiers exist: OpenAI
//   GPT-6.x prompts over 272K input tokens (input and cache 2×, output 1.5× for the whole request), Claude
//   Haiku 5.5 prompts over 100K tokens (5×), Gemini 2.5 Pro prompts over 200K tokens (input 2×, output 1.5×).
import type { z } from 'zod';
import type { modelConfigSchema } from './config-schema';

export type DefaultModel = z.input<typeof modelConfigSchema>;
type Pricing = DefaultModel['endpoints'][number]['pricing'];
type BuiltinProvider = 'openai' | 'anthropic' | 'gemini' | 'deepseek' | 'mistral' | 'xai' | 'groq' | 'echo';

const on = (provider: BuiltinProvider, upstream_model: string, pricing: Pricing) => [{ provider, upstream_model, pricing }];

const CATALOG: DefaultModel[] = [
  // ── OpenAI. GPT-6.x take text and images; reasoning effort none…max (6.2 refuses none and minimal). ──
  {
    id: 'openai/gpt-6.2-astra', name: 'OpenAI: GPT-6.2 Astra',
    description: "OpenAI's most capable model (2026-11-17), for the hardest reasoning, coding and professional work.",
    context_length: 1_050_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    // Cached input and cache writes: not on a page we could read; $0.40 from "60% below GPT-6 Astra's $1"
    // (LiteLLM's launch notes), $10 from OpenAI's 1.25 × input rule for GPT-6 cache writes.
    endpoints: on('openai', 'gpt-6.2-astra', { input: 8, output: 40, cache_read: 0.4, cache_write: 10 }),
  },
  {
    id: 'openai/gpt-6.2-sol', name: 'OpenAI: GPT-6.2 Sol',
    description: "OpenAI's go-to model for everyday work (2026-11-17), from coding to agents at scale.",
    context_length: 1_050_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    endpoints: on('openai', 'gpt-6.2-sol', { input: 2, output: 10, cache_read: 0.1, cache_write: 2.5 }),
  },
  {
    id: 'openai/gpt-6.1-terra', name: 'OpenAI: GPT-6.1 Terra',
    description: 'Fast, efficient GPT-6.1 model for visual reasoning, computer use and clear writing.',
    context_length: 1_050_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    endpoints: on('openai', 'gpt-6.1-terra', { input: 1, output: 5, cache_read: 0.05, cache_write: 1.25 }),
  },
  {
    id: 'openai/gpt-6-luna', name: 'OpenAI: GPT-6 Luna',
    description: "OpenAI's most cost-efficient model, for focused, high-volume tasks.",
    context_length: 1_050_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    endpoints: on('openai', 'gpt-6-luna', { input: 0.1, output: 0.5, cache_read: 0.01, cache_write: 0.125 }),
  },
  {
    id: 'openai/gpt-5-mini', name: 'OpenAI: GPT-5 mini',
    description: 'Reasoning model, cheaper and faster than GPT-5. Deprecated: OpenAI shuts it down on 2026-12-11 and recommends GPT-6.1 Terra.',
    context_length: 400_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    endpoints: on('openai', 'gpt-5-mini', { input: 0.25, output: 2, cache_read: 0.025 }),
  },
  {
    id: 'openai/gpt-4o-mini', name: 'OpenAI: GPT-4o mini',
    description: 'Fast, inexpensive multimodal model. Deprecated: OpenAI shuts it down on 2027-01-14 and recommends GPT-6 Luna.',
    context_length: 128_000, max_output_tokens: 16_384, supports_images: true,
    endpoints: on('openai', 'gpt-4o-mini', { input: 0.15, output: 0.6, cache_read: 0.075 }),
  },

  // ── Anthropic. Claude 5.x: adaptive thinking, 1M context, no long-context premium (Haiku 5.5 aside). ──
  // Aliases are Anthropic's own names (its API ids, undated and dated), so Anthropic clients (Claude Code on
  // /api/v1/messages) name these models as they would at Anthropic.
  {
    id: 'anthropic/claude-fable-5.1', name: 'Anthropic: Claude Fable 5.1',
    description: "Anthropic's highest-capability model, for demanding reasoning and long-horizon agentic work.",
    context_length: 1_000_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    aliases: ['claude-fable-5-1'],
    endpoints: on('anthropic', 'claude-fable-5-1', { input: 10, output: 50, cache_read: 0.25, cache_write: 12.5, cache_write_1h: 20 }),
  },
  {
    id: 'anthropic/claude-opus-5.5', name: 'Anthropic: Claude Opus 5.5',
    description: 'For long-running agentic coding and knowledge work; thinking is always on.',
    context_length: 1_000_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    aliases: ['claude-opus-5-5'],
    endpoints: on('anthropic', 'claude-opus-5-5', { input: 4, output: 20, cache_read: 0.2, cache_write: 5, cache_write_1h: 8 }),
  },
  {
    id: 'anthropic/claude-sonnet-5.5', name: 'Anthropic: Claude Sonnet 5.5',
    description: 'The best combination of speed and intelligence in the Claude line.',
    context_length: 1_000_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    // Cache reads cut from $0.20 to $0.10 on 2026-10-07 (reported by pricing trackers reading Anthropic's page).
    aliases: ['claude-sonnet-5-5'],
    endpoints: on('anthropic', 'claude-sonnet-5-5', { input: 2, output: 10, cache_read: 0.1, cache_write: 2.5, cache_write_1h: 4 }),
  },
  {
    id: 'anthropic/claude-haiku-5.5', name: 'Anthropic: Claude Haiku 5.5',
    description: 'Fastest Claude, for high-volume classification, extraction and routing. Prompts over 100K tokens cost Anthropic 5× more.',
    context_length: 1_000_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    aliases: ['claude-haiku-5-5'],
    endpoints: on('anthropic', 'claude-haiku-5-5', { input: 0.1, output: 0.5, cache_read: 0.01, cache_write: 0.125, cache_write_1h: 0.2 }),
  },
  {
    id: 'anthropic/claude-sonnet-4.5', name: 'Anthropic: Claude Sonnet 4.5',
    description: 'Frontier model for coding and agents, with extended thinking. Deprecated: Anthropic retires it on 2026-11-30 and recommends Claude Sonnet 5.5.',
    context_length: 200_000, max_output_tokens: 64_000, supports_reasoning: true, supports_images: true,
    aliases: ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929'],
    endpoints: on('anthropic', 'claude-sonnet-4-5', { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, cache_write_1h: 6 }),
  },
  {
    id: 'anthropic/claude-haiku-4.5', name: 'Anthropic: Claude Haiku 4.5',
    description: 'Fast, low-cost Claude model with extended thinking (legacy: Claude Haiku 5.5 is current).',
    context_length: 200_000, max_output_tokens: 64_000, supports_reasoning: true, supports_images: true,
    aliases: ['claude-haiku-4-5', 'claude-haiku-4-5-20251001'],
    endpoints: on('anthropic', 'claude-haiku-4-5', { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25, cache_write_1h: 2 }),
  },

  // ── Google Gemini. Input and output share one 1,048,576-token window; 65,536 output tokens per call. ──
  {
    id: 'google/gemini-4-carbon', name: 'Google: Gemini 4 Carbon',
    description: "Google's strongest reasoning model (GA 2026-11-10), for hard coding, debugging and science.",
    context_length: 1_048_576, max_output_tokens: 65_536, supports_reasoning: true, supports_images: true,
    endpoints: on('gemini', 'gemini-4-carbon', { input: 4, output: 20, cache_read: 0.2 }),
  },
  {
    id: 'google/gemini-4-argon', name: 'Google: Gemini 4 Argon',
    description: "Google's frontier Gemini 4 model and default for everyday deep work: coding, finance, law, science.",
    context_length: 1_048_576, max_output_tokens: 65_536, supports_reasoning: true, supports_images: true,
    endpoints: on('gemini', 'gemini-4-argon', { input: 4, output: 20, cache_read: 0.2 }),
  },
  {
    id: 'google/gemini-4-hydrogen', name: 'Google: Gemini 4 Hydrogen',
    description: 'Fast, efficient Gemini 4 model (GA 2026-11-12) for everyday coding and agents; succeeds Gemini 3.8 Flash.',
    context_length: 1_048_576, max_output_tokens: 65_536, supports_reasoning: true, supports_images: true,
    endpoints: on('gemini', 'gemini-4-hydrogen', { input: 1.5, output: 7.5, cache_read: 0.075 }),
  },
  {
    id: 'google/gemini-3.8-flash', name: 'Google: Gemini 3.8 Flash',
    description: 'Latest Gemini 3 Flash, for agentic and multi-step work.',
    context_length: 1_048_576, max_output_tokens: 65_536, supports_reasoning: true, supports_images: true,
    // Cache reads after the promotion: not published yet; 10% of input, as during it ($0.075 of $0.75).
    endpoints: on('gemini', 'gemini-3.8-flash', { input: 1.5, output: 7.5, cache_read: 0.15 }),
  },
  {
    id: 'google/gemini-3.5-flash-lite', name: 'Google: Gemini 3.5 Flash-Lite',
    description: 'Fastest, lowest-cost current Gemini, for high-throughput work.',
    context_length: 1_048_576, max_output_tokens: 65_536, supports_reasoning: true, supports_images: true,
    endpoints: on('gemini', 'gemini-3.5-flash-lite', { input: 0.3, output: 2.5, cache_read: 0.03 }),
  },
  {
    id: 'google/gemini-2.5-pro', name: 'Google: Gemini 2.5 Pro',
    description: 'Previous-generation Gemini Pro. Deprecated: Google shuts it down on 2026-12-01 (its replacement is Gemini 3.8 Flash); open only to projects that already used it.',
    context_length: 1_048_576, max_output_tokens: 65_536, supports_reasoning: true, supports_images: true,
    endpoints: on('gemini', 'gemini-2.5-pro', { input: 1.25, output: 10, cache_read: 0.125 }),
  },
  {
    id: 'google/gemini-2.5-flash', name: 'Google: Gemini 2.5 Flash',
    description: 'Previous-generation Gemini Flash. Deprecated: Google shuts it down on 2026-12-01 (its replacement is Gemini 3.5 Flash-Lite).',
    context_length: 1_048_576, max_output_tokens: 65_536, supports_reasoning: true, supports_images: true,
    endpoints: on('gemini', 'gemini-2.5-flash', { input: 0.3, output: 2.5, cache_read: 0.03 }),
  },

  // ── DeepSeek. Thinking is on by default; both models take 1M tokens and write up to 384K. ──
  {
    id: 'deepseek/deepseek-v4.1-flash', name: 'DeepSeek: DeepSeek V4.1 Flash',
    description: "DeepSeek's fast, low-cost model with thinking and non-thinking modes and image input.",
    context_length: 1_000_000, max_output_tokens: 384_000, supports_reasoning: true, supports_images: true,
    // DeepSeek retired the names deepseek-chat and deepseek-reasoner on 2026-07-24: they were the
    // non-thinking and thinking modes of V4 Flash, whose successor is served as `deepseek-flash`.
    aliases: ['deepseek/deepseek-chat', 'deepseek/deepseek-reasoner'],
    endpoints: on('deepseek', 'deepseek-flash', { input: 0.3, output: 1.2, cache_read: 0.006 }),
  },
  {
    id: 'deepseek/deepseek-v4-pro', name: 'DeepSeek: DeepSeek V4 Pro',
    description: "DeepSeek's most capable model, for complex reasoning and agents. Text only.",
    context_length: 1_000_000, max_output_tokens: 384_000, supports_reasoning: true,
    endpoints: on('deepseek', 'deepseek-v4-pro', { input: 1.32, output: 3.96, cache_read: 0.044 }),
  },

  // ── Embeddings (kind: embedding, served by POST /api/v1/embeddings only). Billed by input tokens; the
  // output price is 0 and max_output_tokens unused. context_length is the longest input the model takes.
  // Prices: OpenAI's pricing page ($0.02 and $0.13 per million), Google's Gemini API pricing page
  // ($0.15 per million for gemini-embedding-001, the GA text embedding model; batch mode is half, not used here).
  {
    id: 'openai/text-embedding-3-small', name: 'OpenAI: Text Embedding 3 Small', kind: 'embedding',
    description: "OpenAI's small, low-cost embedding model: 1536 dimensions (fewer with `dimensions`).",
    context_length: 8_191, max_output_tokens: 1, supports_tools: false,
    endpoints: on('openai', 'text-embedding-3-small', { input: 0.02, output: 0 }),
  },
  {
    id: 'openai/text-embedding-3-large', name: 'OpenAI: Text Embedding 3 Large', kind: 'embedding',
    description: "OpenAI's most capable embedding model: 3072 dimensions (fewer with `dimensions`).",
    context_length: 8_191, max_output_tokens: 1, supports_tools: false,
    endpoints: on('openai', 'text-embedding-3-large', { input: 0.13, output: 0 }),
  },
  {
    id: 'google/gemini-embedding-001', name: 'Google: Gemini Embedding', kind: 'embedding',
    description: "Google's multilingual text embedding model: 3072 dimensions (768 or 1536 recommended with `dimensions`).",
    context_length: 2_048, max_output_tokens: 1, supports_tools: false,
    endpoints: on('gemini', 'gemini-embedding-001', { input: 0.15, output: 0 }),
  },
  // ── Mistral, xAI, Groq: off until MISTRAL_API_KEY / XAI_API_KEY / GROQ_API_KEY is set. Read 2026-11-24. ──
  // Mistral: Mistral's own model pages were not in reach; figures from model trackers quoting them
  // (whichllm.io/models/mistral-mistral-small-2603; anttisahla.com and contextwindows.dev for Large 3). Mistral
  // publishes no separate output limit: the context length is used. No cached-input price (Mistral has none).
  {
    id: 'mistralai/mistral-large-3', name: 'Mistral: Mistral Large 3',
    description: "Mistral's open-weight flagship (41B active / 675B total parameters), multimodal, for agents and long documents.",
    context_length: 256_000, max_output_tokens: 256_000, supports_images: true,
    endpoints: on('mistral', 'mistral-large-2512', { input: 0.5, output: 1.5 }),
  },
  {
    id: 'mistralai/mistral-small-4', name: 'Mistral: Mistral Small 4',
    description: "Mistral's cost-efficient open-weight model (2026-03), text and images, with function calling.",
    context_length: 256_000, max_output_tokens: 256_000, supports_images: true,
    endpoints: on('mistral', 'mistral-small-2603', { input: 0.15, output: 0.6 }),
  },
  // xAI: docs.x.ai/developers/models.md ("Pricing [in (cached in) / out]", 2M context). xAI states no output
  // limit apart from the window; 128K is assumed. Reasoning is chosen by the model id, not a parameter.
  {
    id: 'x-ai/grok-4.20-reasoning', name: 'xAI: Grok 4.20 (reasoning)',
    description: "xAI's flagship Grok 4.20 model with reasoning, text and images.",
    context_length: 2_000_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    endpoints: on('xai', 'grok-4.20-0309-reasoning', { input: 2, output: 6, cache_read: 0.2 }),
  },
  {
    id: 'x-ai/grok-4.1-fast-reasoning', name: 'xAI: Grok 4.1 Fast (reasoning)',
    description: "xAI's low-cost, fast reasoning model for agents and tool calling.",
    context_length: 2_000_000, max_output_tokens: 128_000, supports_reasoning: true, supports_images: true,
    endpoints: on('xai', 'grok-4-1-fast-reasoning', { input: 0.2, output: 0.5, cache_read: 0.05 }),
  },
  {
    id: 'x-ai/grok-4.1-fast', name: 'xAI: Grok 4.1 Fast',
    description: 'Grok 4.1 Fast without reasoning: the quickest answers at the same price.',
    context_length: 2_000_000, max_output_tokens: 128_000, supports_images: true,
    endpoints: on('xai', 'grok-4-1-fast-non-reasoning', { input: 0.2, output: 0.5, cache_read: 0.05 }),
  },
  // Groq: GPT-OSS 120B's price and cache-hit price as quoted from groq.com/pricing by tokenmix.ai (2026-06-04);
  // Llama 3.3 70B's $0.59/$0.79 is Groq's long-standing list price, not re-read on a current copy.
  // Context windows and output limits from console.groq.com/docs/models (131,072; 65,536 and 32,768).
  {
    id: 'openai/gpt-oss-120b', name: 'OpenAI: GPT-OSS 120B (on Groq)',
    description: "OpenAI's open-weight reasoning model served on Groq's LPUs, reasoning effort low, medium or high.",
    context_length: 131_072, max_output_tokens: 65_536, supports_reasoning: true,
    endpoints: on('groq', 'openai/gpt-oss-120b', { input: 0.15, output: 0.6, cache_read: 0.075 }),
  },
  {
    id: 'meta-llama/llama-3.3-70b-instruct', name: 'Meta: Llama 3.3 70B Instruct (on Groq)',
    description: "Meta's Llama 3.3 70B on Groq's LPUs: fast general chat and tool use.",
    context_length: 131_072, max_output_tokens: 32_768,
    endpoints: on('groq', 'llama-3.3-70b-versatile', { input: 0.59, output: 0.79 }),
  },

  // ── Built in. Free, so a new account's first request succeeds without credit. ──
  {
    id: 'switchboard/echo', name: 'Switchboard: Echo',
    description: 'Built in, no network, free: streams back your last message. For trying things out and benchmarks.',
    context_length: 1_000_000, max_output_tokens: 100_000, supports_images: true, supports_tools: false,
    endpoints: on('echo', 'echo', { input: 0, output: 0 }),
  },
];

/**
 * PDF input (`supports_pdf`) by provider rather than on each entry: every OpenAI (GPT-4o, GPT-5 and GPT-6
 * families), Claude and Gemini model above takes PDF documents (OpenAI "File inputs", Anthropic "PDF support",
 * Gemini "Document understanding"); DeepSeek's API takes none; echo takes anything (it answers text only).
 */
const TAKES_PDF: ReadonlySet<string> = new Set<BuiltinProvider>(['openai', 'anthropic', 'gemini', 'echo']);

export const DEFAULT_MODELS: DefaultModel[] = CATALOG.map((m) => ({ ...m, supports_pdf: m.supports_pdf ?? m.endpoints.every((e) => TAKES_PDF.has(e.provider)) }));
