// The operators' entries at rest: the revision every instance polls, writes serialised on it, secrets that
// stop decrypting (ENCRYPTION_KEY changed) dropped with a warning instead of taking the routing down.
import { randomBytes } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { describeEachDatabase } from '@/test/db';
import { deleteAdminModel, loadAdminEntries, putAdminModel, putAdminProvider, routingRevision } from './routing-store';

const model = (id: string, name = id) => ({
  id, name, description: '', kind: 'chat' as const, context_length: 1000, max_output_tokens: 100, supports_reasoning: false, supports_images: false, supports_pdf: false, supports_tools: true, aliases: [], enabled: true,
  endpoints: [{ provider: 'echo', upstream_model: 'echo', pricing: { input: 1, output: 1 } }],
});
const provider = (id: string, key: string) => ({ id, type: 'openai-compatible' as const, base_url: 'http://127.0.0.1:9/v1', keys: [{ id: 'k', key, weight: 1 }], headers: {}, supports_stream_options: true, enabled: true });

const savedKey = process.env.ENCRYPTION_KEY;
afterEach(() => {
  if (savedKey === undefined) delete process.env.ENCRYPTION_KEY;
  else process.env.ENCRYPTION_KEY = savedKey;
  resetEnvCache();
});

describeEachDatabase('routing store', () => {
  it('every write bumps the revision once, concurrent writes included; deleting nothing does not', async () => {
    const start = await routingRevision();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => putAdminModel(model(`store/m${i % 2}`, `v${i}`))));
    expect(results.map((r) => r.revision).sort((a, b) => a - b)).toEqual(Array.from({ length: 8 }, (_, i) => start + 1 + i));
    expect(results.filter((r) => r.created)).toHaveLength(2);
    const loaded = await loadAdminEntries();
    expect(loaded.revision).toBe(start + 8);
    expect(loaded.models.filter((m) => m.id.startsWith('store/')).map((m) => m.id)).toEqual(['store/m0', 'store/m1']);
    await expect(putAdminModel(model('store/m0'), { createOnly: true })).rejects.toMatchObject({ code: 'conflict' });
    expect(await routingRevision()).toBe(start + 8); // the refused write rolled its bump back
    expect(await deleteAdminModel('store/m0')).toEqual({ deleted: true, revision: start + 9 });
    expect(await deleteAdminModel('store/m0')).toEqual({ deleted: false, revision: null });
    expect(await routingRevision()).toBe(start + 9);
  });

  it('a key that no longer decrypts (ENCRYPTION_KEY changed) is left out with a warning; the rest loads', async () => {
    process.env.ENCRYPTION_KEY = randomBytes(32).toString('base64');
    resetEnvCache();
    await putAdminProvider(provider('store-p', 'sk-store-secret-0123456789'));
    expect((await loadAdminEntries()).providers.find((p) => p.id === 'store-p')?.keys).toEqual([{ id: 'k', key: 'sk-store-secret-0123456789', weight: 1 }]);
    process.env.ENCRYPTION_KEY = randomBytes(32).toString('hex');
    resetEnvCache();
    const loaded = await loadAdminEntries();
    expect(loaded.providers.find((p) => p.id === 'store-p')?.keys).toEqual([]);
    expect(loaded.warnings).toEqual([expect.stringMatching(/^admin provider store-p: key k cannot be decrypted, skipped: .*another ENCRYPTION_KEY\)$/)]);
    expect(loaded.warnings.join()).not.toContain('sk-store-secret');
  });
});
