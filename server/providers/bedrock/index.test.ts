import { describe, expect, it } from 'vitest';
import { compileProvider } from '@/server/routing/compile-provider';
import { parseProviderInput } from '@/server/routing/admin-input';
import { providerConfigSchema } from '@/server/routing/config-schema';

const compile = (entry: object, vars: Record<string, string> = {}) =>
  compileProvider(providerConfigSchema.parse({ id: 'bedrock', type: 'bedrock', ...entry }), { source: 'file', readVar: (name) => vars[name], warnings: [] });

describe('type: bedrock in the routing table', () => {
  it('defaults to the region endpoint and the standard AWS variables', () => {
    const provider = compile({ region: 'eu-central-1' }, { AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret' });
    expect(provider).toMatchObject({ configured: true, baseUrl: 'https://bedrock-runtime.eu-central-1.amazonaws.com' });
    expect(provider.adapter.id).toBe('bedrock');
    expect(provider.adapter.createStreamParser).toBeDefined();
  });

  it('names the missing variables when there are neither credentials nor a key; a key alone is enough', () => {
    const bare = compile({ region: 'us-east-1', access_key_id_env: 'MY_ID' }, { AWS_SECRET_ACCESS_KEY: 'secret' });
    expect(bare.configured).toBe(false);
    expect(bare.missing).toMatch(/^MY_ID \(or a Bedrock API key in keys, or aws_credentials: default\)/);
    // The AWS SDK's default chain is asked at the first request: configured without any variable.
    expect(compile({ region: 'us-east-1', aws_credentials: 'default' }).configured).toBe(true);
    expect(compile({ region: 'us-east-1', keys: [{ key_env: 'BEDROCK_KEY' }] }, { BEDROCK_KEY: 'ABSK' }).configured).toBe(true);
  });

  it('a base_url replaces the region endpoint; a provider with neither is refused by the schema', () => {
    expect(compile({ base_url: 'https://vpce-1.bedrock-runtime.us-west-2.vpce.amazonaws.com', keys: [{ key: 'k' }] }).baseUrl).toBe('https://vpce-1.bedrock-runtime.us-west-2.vpce.amazonaws.com');
    expect(providerConfigSchema.safeParse({ id: 'b', type: 'bedrock' }).error?.issues[0]).toMatchObject({ path: ['region'] });
  });

  it('a signed provider whose base_url names no region is refused by the admin API and warned about when built (it was signed for us-east-1 unasked)', () => {
    const proxy = { id: 'b', type: 'bedrock', base_url: 'https://bedrock.internal.example.com' };
    expect(() => parseProviderInput(proxy)).toThrow(/^region: this base_url does not name an AWS region/);
    expect(parseProviderInput({ ...proxy, region: 'eu-west-3' }).region).toBe('eu-west-3');
    expect(parseProviderInput({ ...proxy, keys: [{ key: 'ABSK' }] }).keys).toHaveLength(1); // API keys are not signed
    expect(parseProviderInput({ id: 'b', type: 'bedrock', base_url: 'https://vpce-1.bedrock-runtime.us-west-2.vpce.amazonaws.com' }).region).toBeUndefined();
    // A file's (or a stored) entry keeps working as before, with a warning saying what to set.
    const warnings: string[] = [];
    const built = compileProvider(providerConfigSchema.parse(proxy), { source: 'file', readVar: (name) => ({ AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret' })[name], warnings });
    expect(built.configured).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^file provider "b": this base_url does not name an AWS region.*signing for us-east-1 meanwhile$/)]);
  });
});
