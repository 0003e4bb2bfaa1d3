import { describe, expect, it } from 'vitest';
import { MODEL_ID, modelConfigSchema, type ModelConfigEntry } from './config-schema';
import { DEFAULT_MODELS } from './default-catalog';

const BUILTIN_PROVIDERS = ['openai', 'anthropic', 'gemini', 'deepseek', 'mistral', 'xai', 'groq', 'echo'];

/** The ids of the year-old catalog (server/catalog/catalog-data.ts) and the provider that served each. */
const OLD_IDS: Record<string, string> = {
  'openai/gpt-4o-mini': 'openai',
  'openai/gpt-5-mini': 'openai',
  'anthropic/claude-sonnet-4.5': 'anthropic',
  'anthropic/claude-haiku-4.5': 'anthropic',
  'google/gemini-2.5-flash': 'gemini',
  'google/gemini-2.5-pro': 'gemini',
  'deepseek/deepseek-chat': 'deepseek',
  'deepseek/deepseek-reasoner': 'deepseek',
  'switchboard/echo': 'echo',
};

const parsed: ModelConfigEntry[] = DEFAULT_MODELS.map((model) => modelConfigSchema.parse(model));

/** Resolves a name the way the routing table does: a model id first, then an alias. */
function resolve(name: string): ModelConfigEntry | undefined {
  return parsed.find((m) => m.id === name) ?? parsed.find((m) => m.aliases.includes(name));
}

const prices = (m: ModelConfigEntry) =>
  m.endpoints.flatMap((e) => [e.pricing.input, e.pricing.output, e.pricing.cache_read ?? 0, e.pricing.cache_write ?? 0, e.pricing.cache_write_1h ?? 0]);

describe('DEFAULT_MODELS', () => {
  it('covers every built-in provider with several models', () => {
    for (const provider of ['openai', 'anthropic', 'gemini', 'deepseek', 'mistral', 'xai', 'groq']) {
      const count = parsed.filter((m) => m.endpoints.some((e) => e.provider === provider)).length;
      expect(count, provider).toBeGreaterThanOrEqual(2);
    }
  });

  it('every entry parses with the configuration schema', () => {
    for (const model of DEFAULT_MODELS) {
      const result = modelConfigSchema.safeParse(model);
      expect(result.success, `${model.id}: ${result.error?.message}`).toBe(true);
    }
  });

  it('ids are unique', () => {
    const ids = parsed.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("no alias equals a model id or another alias, and every alias is an author/slug name (or, for Claude, Anthropic's own id)", () => {
    const ids = new Set(parsed.map((m) => m.id));
    const seen = new Set<string>();
    for (const model of parsed) {
      for (const alias of model.aliases) {
        expect(ids.has(alias), `alias ${alias} is also a model id`).toBe(false);
        expect(seen.has(alias), `alias ${alias} appears twice`).toBe(false);
        // Anthropic clients (Claude Code on /api/v1/messages) send Anthropic's bare ids.
        expect(alias).toMatch(model.id.startsWith('anthropic/') ? /^claude-[a-z0-9-]+$/ : MODEL_ID);
        seen.add(alias);
      }
    }
  });

  it('every id of the old catalog still resolves, to a model served by the same provider', () => {
    for (const [oldId, provider] of Object.entries(OLD_IDS)) {
      const model = resolve(oldId);
      expect(model, `${oldId} no longer resolves`).toBeDefined();
      expect(model?.endpoints.map((e) => e.provider), oldId).toContain(provider);
    }
  });

  it('switchboard/echo is free, built in and answers with the echo provider', () => {
    const echo = resolve('switchboard/echo');
    expect(echo?.id).toBe('switchboard/echo');
    expect(echo?.endpoints).toEqual([{ provider: 'echo', upstream_model: 'echo', pricing: { input: 0, output: 0 } }]);
    expect(prices(echo!).every((price) => price === 0)).toBe(true);
    expect(echo).toMatchObject({ context_length: 1_000_000, max_output_tokens: 100_000, supports_images: true, supports_tools: false });
  });

  it('only echo is free: every model with a real upstream has input and output prices (embeddings: input only)', () => {
    for (const model of parsed.filter((m) => m.id !== 'switchboard/echo')) {
      for (const endpoint of model.endpoints) {
        expect(endpoint.pricing.input, model.id).toBeGreaterThan(0);
        if (model.kind === 'embedding') expect(endpoint.pricing.output, model.id).toBe(0);
        else expect(endpoint.pricing.output, model.id).toBeGreaterThan(0);
      }
    }
  });

  it('embedding models: OpenAI and Gemini, at their list prices per million input tokens, on providers with an embeddings API', () => {
    const embedding = Object.fromEntries(parsed.filter((m) => m.kind === 'embedding').map((m) => [m.id, m.endpoints.map((e) => [e.provider, e.upstream_model, e.pricing.input])]));
    expect(embedding).toEqual({
      'openai/text-embedding-3-small': [['openai', 'text-embedding-3-small', 0.02]],
      'openai/text-embedding-3-large': [['openai', 'text-embedding-3-large', 0.13]],
      'google/gemini-embedding-001': [['gemini', 'gemini-embedding-001', 0.15]],
    });
    expect(parsed.filter((m) => m.kind === 'chat').length).toBe(parsed.length - 3);
  });

  it('every endpoint names a built-in provider', () => {
    for (const model of parsed) {
      for (const endpoint of model.endpoints) expect(BUILTIN_PROVIDERS, model.id).toContain(endpoint.provider);
    }
  });

  it('every price converts to whole micro-dollars per million tokens (the table rounds otherwise)', () => {
    for (const model of parsed) {
      for (const usd of prices(model)) expect(Math.abs(usd * 1e6 - Math.round(usd * 1e6)), `${model.id}: ${usd}`).toBeLessThan(1e-6);
    }
  });

  it('a cache hit never costs more than fresh input, and a cache write never less', () => {
    for (const model of parsed) {
      for (const { pricing } of model.endpoints) {
        if (pricing.cache_read !== undefined) expect(pricing.cache_read, model.id).toBeLessThanOrEqual(pricing.input);
        if (pricing.cache_write !== undefined) expect(pricing.cache_write, model.id).toBeGreaterThanOrEqual(pricing.input);
      }
    }
  });

  it("Anthropic's cache_write is the 5-minute write price, 1.25 × input", () => {
    const anthropic = parsed.flatMap((m) => m.endpoints.filter((e) => e.provider === 'anthropic').map((e) => [m.id, e.pricing] as const));
    expect(anthropic.length).toBeGreaterThan(0);
    for (const [id, pricing] of anthropic) expect(pricing.cache_write, id).toBeCloseTo(pricing.input * 1.25, 9);
  });

  it("Anthropic's cache_write_1h is the 1-hour write price, 2 × input; no other provider has one", () => {
    for (const model of parsed) {
      for (const { provider, pricing } of model.endpoints) {
        if (provider === 'anthropic') expect(pricing.cache_write_1h, model.id).toBeCloseTo(pricing.input * 2, 9);
        else expect(pricing.cache_write_1h, model.id).toBeUndefined();
      }
    }
  });

  it('output limits fit in the context window', () => {
    for (const model of parsed) expect(model.max_output_tokens, model.id).toBeLessThanOrEqual(model.context_length);
  });
});
