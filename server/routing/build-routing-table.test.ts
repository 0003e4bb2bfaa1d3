import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import { openaiAdapter } from '@/server/providers/openai';
import { buildRoutingTable, knownProviderIds, type RoutingSources } from './build-routing-table';
import { modelConfigSchema, routingFileSchema, type RoutingFileInput } from './config-schema';
import { DEFAULT_MODELS } from './default-catalog';

const file = (input: RoutingFileInput) => routingFileSchema.parse(input);
const variables = (vars: Record<string, string>) => (name: string) => vars[name];
const noVariables = variables({});

function build(s: Partial<RoutingSources> & { vars?: Record<string, string> } = {}) {
  return buildRoutingTable({ env: s.env ?? parseEnv({}), admin: s.admin, file: s.file, readVar: s.readVar ?? variables(s.vars ?? {}) });
}

const echoEndpoint = { provider: 'echo', upstream_model: 'echo', pricing: { input: 1, output: 1 } };
type ModelInput = NonNullable<RoutingFileInput['models']>[number];
const aModel = (id: string, extra: Partial<ModelInput> = {}): ModelInput => ({
  id,
  name: id,
  context_length: 1000,
  max_output_tokens: 100,
  endpoints: [echoEndpoint],
  ...extra,
});

// The shipped catalog changes with the providers' price lists; tests read what it holds instead of copying it.
const builtinOpenai = DEFAULT_MODELS.find((m) => m.endpoints[0]!.provider === 'openai')!;

describe('buildRoutingTable: layers', () => {
  it('with no file has the shipped catalog on the built-in providers', () => {
    const t = build();
    expect(t.list.map((m) => m.id)).toEqual(DEFAULT_MODELS.map((m) => m.id).sort());
    const echo = t.models.get('switchboard/echo')!;
    expect(echo.source).toBe('builtin');
    expect(echo.endpoints[0]!.provider).toMatchObject({ id: 'echo', type: 'echo', configured: true, keys: [] });
    expect(t.models.get(builtinOpenai.id)!.endpoints[0]!.provider.adapter).toBe(openaiAdapter);
    expect(t.warnings).toEqual([]);
  });

  it('a file model with a built-in id replaces it; an admin model sits between', () => {
    const second = { provider: 'local', upstream_model: 'gpt-x', pricing: { input: 0.1, output: 0.2 } };
    const admin = { providers: [], models: [modelConfigSchema.parse(aModel(builtinOpenai.id, { name: 'from admin' }))] };
    const fromFile = file({
      providers: [{ id: 'local', type: 'openai-compatible', base_url: 'http://127.0.0.1:8000/v1' }],
      models: [aModel(builtinOpenai.id, { name: 'from file', endpoints: [...builtinOpenai.endpoints, second] })],
    });

    expect(build({ admin }).models.get(builtinOpenai.id)).toMatchObject({ name: 'from admin', source: 'admin' });
    const t = build({ admin, file: fromFile });
    const m = t.models.get(builtinOpenai.id)!;
    expect(m).toMatchObject({ name: 'from file', source: 'file' });
    expect(m.endpoints.map((e) => [e.provider.id, e.upstreamModel])).toEqual([
      ['openai', builtinOpenai.endpoints[0]!.upstream_model],
      ['local', 'gpt-x'],
    ]);
    expect(t.list.filter((x) => x.id === builtinOpenai.id)).toHaveLength(1);
  });

  it('providers layer by id too: admin over built-in, file over admin', () => {
    const admin = { providers: [{ id: 'openai', type: 'openai-compatible' as const, name: 'admin openai', base_url: 'http://admin', keys: [], headers: {}, supports_stream_options: true, enabled: true }], models: [] };
    expect(build({ admin }).providers.get('openai')).toMatchObject({ name: 'admin openai', source: 'admin', baseUrl: 'http://admin' });
    const t = build({ admin, file: file({ providers: [{ id: 'openai', type: 'openai', base_url: 'http://file/v1/', keys: [{ key: 'sk-f' }] }] }) });
    expect(t.providers.get('openai')).toMatchObject({ source: 'file', type: 'openai', baseUrl: 'http://file/v1', configured: true });
    // The built-in models follow the id: their endpoints now go to the file's provider.
    expect(t.models.get(builtinOpenai.id)!.endpoints[0]!.provider.source).toBe('file');
  });
});

describe('buildRoutingTable: aliases', () => {
  it('resolve to their model; a model id beats an alias, the file beats the admin', () => {
    const admin = { providers: [], models: [modelConfigSchema.parse(aModel('ops/model', { aliases: ['shared', 'ops'] }))] };
    const t = build({ admin, file: file({ models: [aModel('acme/fast', { aliases: ['fast', 'shared', 'switchboard/echo', 'acme/fast'] })] }) });
    const fast = t.models.get('acme/fast')!;
    expect(t.models.get('fast')).toBe(fast);
    expect(t.models.get('shared')).toBe(fast);
    expect(t.models.get('ops')!.id).toBe('ops/model');
    expect(t.models.get('switchboard/echo')!.id).toBe('switchboard/echo');
    expect(fast.aliases).toEqual(['fast', 'shared']);
    expect(t.models.get('ops/model')!.aliases).toEqual(['ops']);
    expect(t.warnings).toEqual([
      'file model "acme/fast": alias "switchboard/echo" is the id of another model; the alias is ignored',
      'admin model "ops/model": alias "shared" is already an alias of "acme/fast"; the alias is ignored',
    ]);
    expect(t.list.map((m) => m.id)).not.toContain('fast');
  });
});

describe('buildRoutingTable: keys', () => {
  const pool = file({
    providers: [
      {
        id: 'pool',
        type: 'openai',
        keys: [
          { key_env: 'POOL_KEY_A', weight: 1 },
          { key: 'sk-literal', weight: 3 },
          { id: 'spare', key_env: 'POOL_KEY_C', weight: 0.5 },
        ],
      },
    ],
  });

  it('have ids (given, else key_env, else key-<n>), refs <provider>/<id>, weights and values', () => {
    const p = build({ file: pool, vars: { POOL_KEY_A: 'sk-a', POOL_KEY_C: ' sk-c\n' } }).providers.get('pool')!;
    expect(p.keys).toEqual([
      { id: 'POOL_KEY_A', ref: 'pool/POOL_KEY_A', apiKey: 'sk-a', weight: 1, keyEnv: 'POOL_KEY_A' },
      { id: 'key-2', ref: 'pool/key-2', apiKey: 'sk-literal', weight: 3 },
      { id: 'spare', ref: 'pool/spare', apiKey: 'sk-c', weight: 0.5, keyEnv: 'POOL_KEY_C' },
    ]);
    expect(p).toMatchObject({ configured: true, baseUrl: 'https://api.openai.com/v1' });
    expect(p.missing).toBeUndefined();
  });

  it('whose variable is unset are left out', () => {
    expect(build({ file: pool, vars: { POOL_KEY_C: 'sk-c' } }).providers.get('pool')!.keys.map((k) => k.id)).toEqual(['key-2', 'spare']);
  });

  it('all unset: the provider is not configured and names the variables', () => {
    const onlyEnv = file({ providers: [{ id: 'pool', type: 'openai-compatible', base_url: 'http://x', keys: [{ key_env: 'POOL_KEY_A' }, { key_env: 'POOL_KEY_B' }] }] });
    const p = build({ file: onlyEnv, vars: { POOL_KEY_A: '  ' } }).providers.get('pool')!;
    expect(p).toMatchObject({ configured: false, missing: 'POOL_KEY_A or POOL_KEY_B', keys: [] });
  });

  it('none listed: a local openai-compatible server is configured, a public API is not', () => {
    const t = build({
      file: file({
        providers: [
          { id: 'ollama', type: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1' },
          { id: 'public', type: 'anthropic' },
          { id: 'proxy', type: 'anthropic', base_url: 'http://proxy.internal' },
        ],
      }),
    });
    expect(t.providers.get('ollama')).toMatchObject({ configured: true, keys: [] });
    expect(t.providers.get('public')).toMatchObject({ configured: false, missing: 'a key for provider "public"', baseUrl: 'https://api.anthropic.com' });
    expect(t.providers.get('proxy')).toMatchObject({ configured: true });
  });

  it('built-ins come from their variables, as before', () => {
    const t = build({ env: parseEnv({ OPENAI_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999' }) });
    expect(t.providers.get('openai')).toMatchObject({ configured: true, keys: [{ id: 'OPENAI_API_KEY', ref: 'openai/OPENAI_API_KEY', apiKey: 'sk-env', weight: 1 }] });
    expect(t.providers.get('anthropic')).toMatchObject({ configured: true, keys: [], baseUrl: 'http://127.0.0.1:9999' });
    expect(t.providers.get('gemini')).toMatchObject({ configured: false, missing: 'GEMINI_API_KEY', source: 'builtin' });
  });
});

describe('buildRoutingTable: CUSTOM_PROVIDERS', () => {
  const custom = (value: unknown) => parseEnv({ CUSTOM_PROVIDERS: JSON.stringify(value) });

  it('still yields <provider id>/<model id> models on an openai-compatible provider', () => {
    const env = custom([
      {
        id: 'ollama',
        baseUrl: 'http://127.0.0.1:11434/v1/',
        apiKeyEnv: 'OLLAMA_KEY',
        headers: { 'X-Team': 'a' },
        supportsStreamOptions: false,
        models: [{ id: 'llama3', upstreamModel: 'llama3.1:8b', contextLength: 8192, inputPrice: 0.1, outputPrice: 0.2 }],
      },
    ]);
    const t = build({ env, vars: { OLLAMA_KEY: 'ol-key' } });
    const m = t.models.get('ollama/llama3')!;
    expect(m).toMatchObject({ name: 'ollama: llama3', description: 'Served by http://127.0.0.1:11434/v1/', contextLength: 8192, maxOutputTokens: 4096, source: 'custom_providers' });
    expect(m.endpoints).toHaveLength(1);
    expect(m.endpoints[0]).toMatchObject({ upstreamModel: 'llama3.1:8b', inputPrice: 100_000, outputPrice: 200_000, cacheReadPrice: 0, cacheWritePrice: 0 });
    expect(m.endpoints[0]!.provider).toMatchObject({
      id: 'ollama',
      type: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      headers: { 'X-Team': 'a' },
      keys: [{ id: 'OLLAMA_KEY', ref: 'ollama/OLLAMA_KEY', apiKey: 'ol-key', weight: 1 }],
      configured: true,
      source: 'custom_providers',
    });
    expect(m.endpoints[0]!.provider.adapter.id).toBe('openai-compatible');
    expect(knownProviderIds({ env })).toContain('ollama');
  });

  it('without a key is a configured local server; the admin and the file override it by id', () => {
    const env = custom([{ id: 'vllm', baseUrl: 'http://gpu:8000/v1', models: [{ id: 'qwen' }] }]);
    expect(build({ env }).providers.get('vllm')).toMatchObject({ configured: true, keys: [] });
    const t = build({ env, file: file({ models: [aModel('vllm/qwen', { name: 'Qwen from the file' })] }) });
    expect(t.models.get('vllm/qwen')).toMatchObject({ name: 'Qwen from the file', source: 'file' });
  });

  it('refuses a malformed value with its own messages', () => {
    expect(() => build({ env: parseEnv({ CUSTOM_PROVIDERS: '[{"id":"openai","baseUrl":"http://x","models":[{"id":"m"}]}]' }) })).toThrow('CUSTOM_PROVIDERS: "openai" is a built-in provider id');
    expect(() => build({ env: parseEnv({ CUSTOM_PROVIDERS: '[{"id":"Bad Id","baseUrl":"nope","models":[]}]' }) })).toThrow(/^CUSTOM_PROVIDERS: 0\.id: provider id/);
    expect(() => build({ env: parseEnv({ CUSTOM_PROVIDERS: '[oops' }) })).toThrow(/^CUSTOM_PROVIDERS is not valid JSON/);
  });
});

describe('buildRoutingTable: endpoints and prices', () => {
  it('prices USD per million become exact integer micro-dollars', () => {
    const pricing = { input: 0.075, output: 2.5, cache_read: 0.0001, cache_write: 3.75, cache_write_1h: 6 };
    const t = build({ file: file({ models: [aModel('acme/priced', { endpoints: [{ ...echoEndpoint, pricing }, { ...echoEndpoint, pricing: { input: 0.15, output: 0.6 } }] })] }) });
    const [a, b] = t.models.get('acme/priced')!.endpoints;
    expect([a!.inputPrice, a!.outputPrice, a!.cacheReadPrice, a!.cacheWritePrice, a!.cacheWrite1hPrice]).toEqual([75_000, 2_500_000, 100, 3_750_000, 6_000_000]);
    expect([b!.inputPrice, b!.outputPrice, b!.cacheReadPrice, b!.cacheWritePrice, b!.cacheWrite1hPrice]).toEqual([150_000, 600_000, 0, 0, 0]);
  });

  it("context length and max output default to the model's", () => {
    const t = build({ file: file({ models: [aModel('acme/ctx', { endpoints: [echoEndpoint, { ...echoEndpoint, context_length: 500, max_output_tokens: 50 }] })] }) });
    expect(t.models.get('acme/ctx')!.endpoints.map((e) => [e.contextLength, e.maxOutputTokens])).toEqual([
      [1000, 100],
      [500, 50],
    ]);
  });

  it('drops an endpoint naming an unknown provider, and a model left without endpoints, with warnings', () => {
    const admin = {
      providers: [],
      models: [
        modelConfigSchema.parse(aModel('ops/half', { endpoints: [{ ...echoEndpoint, provider: 'gone' }, echoEndpoint] })),
        modelConfigSchema.parse(aModel('ops/none', { endpoints: [{ ...echoEndpoint, provider: 'gone' }] })),
      ],
    };
    const t = build({ admin });
    expect(t.models.get('ops/half')!.endpoints.map((e) => e.provider.id)).toEqual(['echo']);
    expect(t.models.has('ops/none')).toBe(false);
    expect(t.warnings).toEqual([
      'admin model "ops/half": endpoint provider "gone" is not defined; the endpoint is left out',
      'admin model "ops/none": endpoint provider "gone" is not defined; the endpoint is left out',
      'admin model "ops/none": no endpoint left; the model is left out',
    ]);
  });

  it("carries a provider's timeout_ms (none: the gateway's default)", () => {
    const t = build({ file: file({ providers: [{ id: 'slow', type: 'openai-compatible', base_url: 'http://x', timeout_ms: 300 }, { id: 'plain', type: 'openai-compatible', base_url: 'http://y' }] }) });
    expect(t.providers.get('slow')!.timeoutMs).toBe(300);
    expect(t.providers.get('plain')!.timeoutMs).toBeUndefined();
  });

  it('keeps disabled models and providers, marked, for the admin API to show', () => {
    const t = build({ file: file({ providers: [{ id: 'off', type: 'openai-compatible', base_url: 'http://x', enabled: false }], models: [aModel('acme/off', { enabled: false, endpoints: [{ ...echoEndpoint, provider: 'off' }] })] }) });
    expect(t.models.get('acme/off')).toMatchObject({ enabled: false });
    expect(t.models.get('acme/off')!.endpoints[0]!.provider.enabled).toBe(false);
  });

  it('hands out frozen objects: a request in flight cannot see another change its table', () => {
    const t = build({ file: file({ models: [aModel('acme/fast', { aliases: ['fast'] })] }) });
    const m = t.models.get('acme/fast')!;
    expect([t, t.list, m, m.aliases, m.endpoints, m.endpoints[0], m.endpoints[0]!.provider, m.endpoints[0]!.provider.keys].every(Object.isFrozen)).toBe(true);
  });

  it('reads key variables through readVar, not process.env', () => {
    process.env.ROUTING_TEST_KEY = 'from-process-env';
    try {
      const pool = file({ providers: [{ id: 'pool', type: 'openai', keys: [{ key_env: 'ROUTING_TEST_KEY' }] }] });
      expect(build({ file: pool, readVar: noVariables }).providers.get('pool')).toMatchObject({ configured: false, missing: 'ROUTING_TEST_KEY' });
      // The default reader is rawEnv.
      expect(buildRoutingTable({ env: parseEnv({}), file: pool }).providers.get('pool')!.keys[0]!.apiKey).toBe('from-process-env');
    } finally {
      delete process.env.ROUTING_TEST_KEY;
    }
  });
});

describe('buildRoutingTable: model kinds', () => {
  it('kind defaults to chat; an embedding model keeps only endpoints on providers with an embeddings API', () => {
    const t = build({
      file: file({
        providers: [{ id: 'local', type: 'openai-compatible', base_url: 'http://127.0.0.1:8000/v1' }],
        models: [
          aModel('test/chat'),
          aModel('test/embed', { kind: 'embedding', endpoints: [{ provider: 'anthropic', upstream_model: 'x', pricing: { input: 1, output: 0 } }, { provider: 'local', upstream_model: 'bge', pricing: { input: 1, output: 0 } }] }),
          aModel('test/echo-embed', { kind: 'embedding' }),
        ],
      }),
    });
    expect(t.models.get('test/chat')!.kind).toBe('chat');
    expect(t.models.get('test/embed')!.kind).toBe('embedding');
    expect(t.models.get('test/embed')!.endpoints.map((e) => e.provider.id)).toEqual(['local']);
    expect(t.models.has('test/echo-embed')).toBe(false);
    expect(t.warnings).toContain('file model "test/embed": provider "anthropic" (type anthropic) has no embeddings API; the endpoint is left out');
    expect(t.warnings).toContain('file model "test/echo-embed": no endpoint left; the model is left out');
  });

  it('the shipped embedding models are on OpenAI and Gemini', () => {
    const kinds = build().list.filter((m) => m.kind === 'embedding').map((m) => [m.id, m.endpoints[0]!.provider.type]);
    expect(kinds).toEqual([
      ['google/gemini-embedding-001', 'gemini'],
      ['openai/text-embedding-3-large', 'openai'],
      ['openai/text-embedding-3-small', 'openai'],
    ]);
  });
});
