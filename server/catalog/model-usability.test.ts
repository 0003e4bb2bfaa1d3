import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import { buildRoutingTable } from '@/server/routing/build-routing-table';
import type { RoutingModel } from '@/server/routing/routing-table';
import { modelUsability, OPEN_POLICY } from './model-usability';

// The built-in catalog with only OpenAI's key set: echo needs none, Anthropic and the rest are unconfigured.
const vars: Record<string, string> = { OPENAI_API_KEY: 'sk-test' };
const table = buildRoutingTable({ env: parseEnv(vars), readVar: (name) => vars[name] });
const model = (id: string) => table.models.get(id)!;

describe('modelUsability', () => {
  it('a model whose provider has a key, and echo, are usable', () => {
    expect(modelUsability(model('openai/gpt-4o-mini'))).toEqual({ usable: true, reason: null, message: null });
    expect(modelUsability(model('switchboard/echo')).usable).toBe(true);
  });

  it('a model whose provider has no key is not, and says which variable is missing', () => {
    const u = modelUsability(model('anthropic/claude-sonnet-4.5'));
    expect(u).toMatchObject({ usable: false, reason: 'provider_not_configured' });
    expect(u.message).toContain('ANTHROPIC_API_KEY');
  });

  it("the account's own key makes an unconfigured provider usable", () => {
    expect(modelUsability(model('anthropic/claude-sonnet-4.5'), { ...OPEN_POLICY, byokProviders: ['anthropic'] }).usable).toBe(true);
  });

  it('a disabled model, or one whose providers are all switched off, is not', () => {
    const m = model('openai/gpt-4o-mini');
    expect(modelUsability({ ...m, enabled: false }).reason).toBe('model_disabled');
    const off: RoutingModel = { ...m, endpoints: m.endpoints.map((e) => ({ ...e, provider: { ...e.provider, enabled: false } })) };
    expect(modelUsability(off).reason).toBe('provider_disabled');
  });

  it("the organization's allowed_models admit the model by id or alias, and nothing else", () => {
    const m = model('openai/gpt-4o-mini');
    expect(modelUsability(m, { ...OPEN_POLICY, allowedModels: ['switchboard/echo'] })).toMatchObject({ usable: false, reason: 'organization_policy' });
    expect(modelUsability(m, { ...OPEN_POLICY, allowedModels: ['openai/gpt-4o-mini'] }).usable).toBe(true);
    expect(modelUsability({ ...m, aliases: ['old/name'] }, { ...OPEN_POLICY, allowedModels: ['old/name'] }).usable).toBe(true);
    expect(modelUsability(m, { ...OPEN_POLICY, allowedModels: [] }).usable).toBe(true);
  });

  it("the organization's allowed_providers must include a provider that can serve it", () => {
    const m = model('openai/gpt-4o-mini');
    const u = modelUsability(m, { ...OPEN_POLICY, allowedProviders: ['anthropic'] });
    expect(u).toMatchObject({ usable: false, reason: 'organization_policy' });
    expect(u.message).toContain('anthropic');
    expect(modelUsability(m, { ...OPEN_POLICY, allowedProviders: ['openai'] }).usable).toBe(true);
  });
});
