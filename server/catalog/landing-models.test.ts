import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseEnv } from '@/server/env';
import { buildRoutingTable } from '@/server/routing/build-routing-table';
import type { RoutingModel } from '@/server/routing/routing-table';
import { landingModels } from './landing-models';

// landingModels reads the enabled models of the process's routing table (list-models.ts): each test sets them.
const listed = vi.hoisted(() => ({ models: [] as RoutingModel[] }));
vi.mock('./list-models', () => ({ listModels: async () => listed.models }));

/** The built-in catalog with these provider keys set, its enabled models (what listModels returns). */
function catalog(vars: Record<string, string>): RoutingModel[] {
  return buildRoutingTable({ env: parseEnv(vars), readVar: (name) => vars[name] }).list.filter((m) => m.enabled);
}

const EVERY_KEY = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test', GEMINI_API_KEY: 'g-test', DEEPSEEK_API_KEY: 'sk-ds-test' };

describe('landingModels', () => {
  beforeEach(() => {
    listed.models = catalog(EVERY_KEY);
  });

  it('with every provider configured, every landing model is usable and the first is the example', async () => {
    const m = await landingModels();
    expect(Object.entries(m.usability).filter(([, u]) => !u.usable)).toEqual([]);
    expect(m.example).toBe('anthropic/claude-sonnet-4.5');
    expect(m.second).toBe('openai/gpt-4o-mini');
  });

  it('finds a landing id that is another model\'s alias (deepseek/deepseek-chat) usable', async () => {
    const m = await landingModels();
    expect(m.usability['deepseek/deepseek-chat']).toEqual({ usable: true, reason: null, message: null });
  });

  it('marks a model whose provider is not configured, and the example falls back to a usable one', async () => {
    listed.models = catalog({ ...EVERY_KEY, ANTHROPIC_API_KEY: '' });
    const m = await landingModels();
    expect(m.usability['anthropic/claude-sonnet-4.5']).toMatchObject({ usable: false, reason: 'provider_not_configured' });
    expect(m.usability['anthropic/claude-sonnet-4.5']!.message).toContain('ANTHROPIC_API_KEY');
    expect(m.example).toBe('openai/gpt-4o-mini');
    expect(m.second).toBe('google/gemini-2.5-flash');
  });

  it('marks a model the operator disabled (no longer listed) as not offered, and skips it for the example', async () => {
    listed.models = catalog(EVERY_KEY).filter((m) => m.id !== 'anthropic/claude-sonnet-4.5' && m.id !== 'openai/gpt-4o-mini');
    const m = await landingModels();
    expect(m.usability['anthropic/claude-sonnet-4.5']).toMatchObject({ usable: false, reason: 'model_disabled' });
    expect(m.usability['openai/gpt-4o-mini']).toMatchObject({ usable: false, reason: 'model_disabled' });
    expect(m.example).toBe('google/gemini-2.5-flash');
    expect(m.second).toBe('deepseek/deepseek-chat');
  });

  it('with no provider configured, the example is echo, which needs none', async () => {
    listed.models = catalog({});
    const m = await landingModels();
    expect(m.usability['switchboard/echo']!.usable).toBe(true);
    expect(Object.entries(m.usability).filter(([, u]) => u.usable).map(([id]) => id)).toEqual(['switchboard/echo']);
    expect(m.example).toBe('switchboard/echo');
    expect(m.second).toBe('switchboard/echo');
  });
});
