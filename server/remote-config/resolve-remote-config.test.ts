import { describe, expect, it } from 'vitest';
import { REMOTE_CONFIG_DEFAULTS } from './remote-config-defaults';
import { applyLayers, mergeConfig } from './resolve-remote-config';

describe('remote config layering', () => {
  it('merges objects key by key and replaces arrays and scalars', () => {
    expect(mergeConfig({ a: { x: 1, y: 2 }, b: [1, 2], c: 1 }, { a: { y: 3 }, b: [3], c: null })).toEqual({ a: { x: 1, y: 3 }, b: [3], c: null });
  });

  it('applies GLOBAL, organization, then user over the code defaults and says who set what', () => {
    const { config, sources } = applyLayers([
      { source: 'global', rows: [{ key: 'default_model', value: 'openai/gpt-5-mini' }, { key: 'banner', value: 'Maintenance at 2am' }] },
      { source: 'organization', rows: [{ key: 'features', value: { reasoning: false } }, { key: 'default_model', value: 'deepseek/deepseek-chat' }] },
      { source: 'user', rows: [{ key: 'default_model', value: 'anthropic/claude-haiku-4.5' }] },
    ]);
    expect(config.default_model).toBe('anthropic/claude-haiku-4.5');
    expect(config.features).toEqual({ ...REMOTE_CONFIG_DEFAULTS.features, reasoning: false });
    expect(config.banner).toBe('Maintenance at 2am');
    expect(sources).toMatchObject({ default_model: 'user', features: 'organization', banner: 'global', small_model: 'default' });
    // the defaults themselves are never mutated
    expect(REMOTE_CONFIG_DEFAULTS.features.reasoning).toBe(true);
  });
});
