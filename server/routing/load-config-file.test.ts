import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_PROVIDER_IDS } from './builtin-providers';
import { ConfigFileError } from './config-file-error';
import { loadConfigFile, parseConfigText } from './load-config-file';

// The issue's example, verbatim. openai-b is not defined in it: it must come from elsewhere (the admin API).
const ISSUE_EXAMPLE = `providers:
  - id: openai-a                 # lower-case id; endpoints and the \`provider\` request field name it
    type: openai                 # openai | anthropic | gemini | openai-compatible (cloud types: see the cloud-providers issue)
    base_url: https://api.openai.com/v1
    keys:                        # one or more; requests are spread over healthy keys by weight
      - { key_env: OPENAI_API_KEY, weight: 1 }   # key_env: the variable that holds the key
      - { key: sk-..., weight: 3 }               # or the key itself
    headers: { OpenAI-Organization: org-123 }     # optional, sent with every request
models:
  - id: acme/fast                # what clients send as \`model\`
    name: Acme Fast
    context_length: 128000
    max_output_tokens: 16384
    supports_reasoning: false
    supports_images: true
    supports_tools: true
    aliases: [fast]              # optional: other names accepted as \`model\`
    endpoints:                   # default order
      - provider: openai-a
        upstream_model: gpt-4o-mini
        pricing: { input: 0.15, output: 0.6, cache_read: 0.075, cache_write: 0 }   # USD per million tokens
      - provider: openai-b
        upstream_model: gpt-4o-mini
        pricing: { input: 0.15, output: 0.6 }
`;

const withOpenaiB = { knownProviders: [...BUILTIN_PROVIDER_IDS, 'openai-b'] };

/** The ConfigFileError parseConfigText throws for this text (fails the test if it does not throw one). */
function refusal(text: string, fileName = 'switchboard.yaml', options = {}): ConfigFileError {
  try {
    parseConfigText(text, fileName, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigFileError);
    return err as ConfigFileError;
  }
  throw new Error('the configuration was accepted');
}

const model = (extra = '') => `models:
  - id: acme/fast
    name: Fast
    context_length: 1000
    max_output_tokens: 100
    endpoints:
      - provider: echo
        upstream_model: echo
        pricing: { input: 1, output: 2 }
${extra}`;

describe('parseConfigText', () => {
  it('reads the issue example with key_env, literal keys, headers, aliases and defaults', () => {
    const file = parseConfigText(ISSUE_EXAMPLE, 'switchboard.yaml', withOpenaiB);
    expect(file.providers).toEqual([
      {
        id: 'openai-a',
        type: 'openai',
        base_url: 'https://api.openai.com/v1',
        keys: [
          { key_env: 'OPENAI_API_KEY', weight: 1 },
          { key: 'sk-...', weight: 3 },
        ],
        headers: { 'OpenAI-Organization': 'org-123' },
        supports_stream_options: true,
        enabled: true,
      },
    ]);
    const [fast] = file.models;
    expect(fast).toMatchObject({ id: 'acme/fast', name: 'Acme Fast', context_length: 128000, aliases: ['fast'], description: '', enabled: true });
    expect(fast!.endpoints.map((e) => e.provider)).toEqual(['openai-a', 'openai-b']);
    expect(fast!.endpoints[0]!.pricing).toEqual({ input: 0.15, output: 0.6, cache_read: 0.075, cache_write: 0 });
  });

  it('refuses the issue example when openai-b is defined nowhere, naming its line and field', () => {
    const err = refusal(ISSUE_EXAMPLE);
    expect(err.message).toMatch(/^switchboard\.yaml:22:19: models\[0\]\.endpoints\[1\]\.provider: unknown provider "openai-b"/);
  });

  it('reads JSON, the same shape', () => {
    const json = JSON.stringify({ models: [{ id: 'acme/fast', name: 'Fast', context_length: 1000, max_output_tokens: 100, endpoints: [{ provider: 'echo', upstream_model: 'echo', pricing: { input: 1, output: 2 } }] }] });
    const file = parseConfigText(json, 'switchboard.json');
    expect(file.providers).toEqual([]);
    expect(file.models[0]).toMatchObject({ id: 'acme/fast', supports_tools: true, endpoints: [{ provider: 'echo', pricing: { input: 1, output: 2 } }] });
  });

  it('names line, column and field of a value of the wrong type', () => {
    const err = refusal(model().replace('context_length: 1000', 'context_length: lots'));
    expect(err.message).toBe('switchboard.yaml:4:21: models[0].context_length: expected number, received string');
    expect(err.issues).toEqual([{ line: 4, column: 21, field: 'models[0].context_length', message: 'expected number, received string' }]);
  });

  it('names the line of a negative price', () => {
    const err = refusal(model().replace('input: 1,', 'input: -0.5,'));
    expect(err.message).toBe('switchboard.yaml:9:27: models[0].endpoints[0].pricing.input: a price cannot be negative');
  });

  it('points a missing endpoints list at the model that lacks it', () => {
    const text = `models:\n  - id: acme/fast\n    name: Fast\n    context_length: 1000\n    max_output_tokens: 100\n`;
    expect(refusal(text).message).toBe('switchboard.yaml:2:5: models[0].endpoints: required field missing (expected array)');
    expect(refusal(`${text}    endpoints: []\n`).message).toBe('switchboard.yaml:6:16: models[0].endpoints: a model needs at least one endpoint');
  });

  it('names an unknown field at its key', () => {
    const err = refusal(`providers:\n  - id: local\n    type: openai-compatible\n    base_url: http://127.0.0.1:11434/v1\n    key_evn: X\n`);
    expect(err.message).toBe('switchboard.yaml:5:5: providers[0].key_evn: unknown field');
  });

  it('refuses an endpoint naming a provider that is neither in the file nor known', () => {
    const err = refusal(model().replace('provider: echo', 'provider: ollama'));
    expect(err.message).toMatch(/^switchboard\.yaml:7:19: models\[0\]\.endpoints\[0\]\.provider: unknown provider "ollama"/);
    // Known from elsewhere (CUSTOM_PROVIDERS, the admin API): accepted.
    expect(parseConfigText(model().replace('provider: echo', 'provider: ollama'), 'x.yaml', { knownProviders: ['ollama'] }).models).toHaveLength(1);
  });

  it('refuses duplicate provider ids, model ids, aliases and key ids', () => {
    const providers = `providers:\n  - { id: local, type: openai-compatible, base_url: "http://a" }\n  - { id: local, type: openai-compatible, base_url: "http://b", keys: [{ key_env: K }, { key_env: K }] }\n`;
    const more = (extra: string) => model(extra).replace('models:\n', '');
    const err = refusal(providers + model('    aliases: [quick]\n') + more('    aliases: [quick]\n').replace('id: acme/fast', 'id: acme/other') + more(''));
    expect(err.message.split('\n')).toEqual([
      'switchboard.yaml:3:11: providers[1].id: duplicate provider id "local" (also providers[0])',
      'switchboard.yaml:3:88: providers[1].keys[1]: duplicate key id "K" (also keys[0]): give each key its own id',
      'switchboard.yaml:22:15: models[1].aliases[0]: alias "quick" is already an alias of "acme/fast"',
      'switchboard.yaml:23:9: models[2].id: duplicate model id "acme/fast" (also models[0])',
    ]);
  });

  it('refuses an alias that is another model id in the file', () => {
    const second = model('    aliases: [acme/fast]\n').replace('models:\n', '').replace('id: acme/fast', 'id: acme/other');
    expect(refusal(model() + second).message).toBe('switchboard.yaml:18:15: models[1].aliases[0]: alias "acme/fast" is the id of models[0]');
  });

  it('reports a YAML syntax error with its line', () => {
    const err = refusal('providers:\n  - id: a\n    type: [openai\nmodels: []\n');
    expect(err.issues[0]).toMatchObject({ line: 4, field: '' });
    expect(err.message).toMatch(/^switchboard\.yaml:4:1: YAML syntax error: /);
  });

  it('reports a JSON syntax error with its line, and a JSON schema error with its line', () => {
    const broken = '{\n  "providers": [],\n  "models": [\n    { "id": "acme/fast", }\n  ]\n}\n';
    expect(refusal(broken, 'switchboard.json').message).toMatch(/^switchboard\.json:4:26: JSON syntax error: /);
    const negative = '{\n  "models": [{\n    "id": "acme/fast", "name": "Fast", "context_length": 1000, "max_output_tokens": 100,\n    "endpoints": [{ "provider": "echo", "upstream_model": "echo",\n      "pricing": { "input": 1, "output": -2 } }]\n  }]\n}\n';
    expect(refusal(negative, 'switchboard.json').message).toBe('switchboard.json:5:42: models[0].endpoints[0].pricing.output: a price cannot be negative');
  });

  it('refuses a repeated key in YAML', () => {
    expect(refusal('providers: []\nmodels: []\nproviders: []\n').message).toMatch(/^switchboard\.yaml:3:1: YAML syntax error: Map keys must be unique/);
  });

  it('refuses an empty file rather than dropping every model (an editor may truncate before writing)', () => {
    expect(refusal('# only a comment\n').message).toMatch(/^switchboard\.yaml:1:1: the file holds no configuration/);
  });

  it('needs base_url for an openai-compatible provider', () => {
    // A missing field has no place of its own: the message points at the entry that lacks it.
    expect(refusal('providers:\n  - id: local\n    type: openai-compatible\n').message).toBe(
      'switchboard.yaml:2:5: providers[0].base_url: an openai-compatible provider needs base_url (where its server listens)',
    );
  });
});

describe('loadConfigFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file and names it in errors', () => {
    const file = path.join(dir, 'switchboard.yaml');
    writeFileSync(file, model());
    expect(loadConfigFile(file).models[0]!.id).toBe('acme/fast');
    writeFileSync(file, model().replace('output: 2', 'output: -2'));
    expect(() => loadConfigFile(file)).toThrow(`${file}:9:38: models[0].endpoints[0].pricing.output: a price cannot be negative`);
  });

  it('names a file that cannot be read', () => {
    expect(() => loadConfigFile(path.join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: cannot read the file \(ENOENT\)/);
  });
});
