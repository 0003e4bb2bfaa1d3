// catalog:import FILE: a YAML or JSON file in SWITCHBOARD_CONFIG's shape becomes operators' entries (every
// provider and model upserted, in one transaction: one revision, every instance reloads once). Parsed and
// checked exactly as SWITCHBOARD_CONFIG is (load-config-file.ts: problems named by file:line:column and
// field); ids SWITCHBOARD_CONFIG itself defines are refused, since the file would win over them anyway.
// Imported providers become operators' entries, so a credentials_file follows the admin API's rule
// (admin-credentials-file.ts) here too, rather than leaving the provider unconfigured at the next build.
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { resolveAdminCredentialsFileOrThrow } from './admin-credentials-file';
import { parseConfigText } from './load-config-file';
import type { CurrentRouting } from './current-routing';
import { putAdminEntries } from './routing-store';

export interface ImportResult {
  providers: number;
  models: number;
  created: number;
  updated: number;
  /** `<provider>/<key id>`: stored keys the file did not list, kept (an import never deletes a secret). */
  kept_keys: string[];
  revision: number;
}

export async function importCatalog(p: { text: string; fileName: string; current: CurrentRouting }): Promise<ImportResult> {
  const { table, file, stored } = p.current;
  const known = new Set([...table.providers.keys(), ...stored.providers.map((s) => s.id)]);
  const parsed = parseConfigText(p.text, p.fileName, { knownProviders: known });
  const readOnly = [
    ...parsed.providers.filter((e) => file?.providers.some((f) => f.id === e.id)).map((e) => `provider ${e.id}`),
    ...parsed.models.filter((e) => file?.models.some((f) => f.id === e.id)).map((e) => `model ${e.id}`),
  ];
  if (readOnly.length) {
    throw new AppError('conflict', `${readOnly.join(', ')}: defined in SWITCHBOARD_CONFIG, read-only here; nothing was imported`, { read_only: readOnly });
  }
  const providers = parsed.providers.map((entry) => {
    try {
      return resolveAdminCredentialsFileOrThrow(entry, env().SWITCHBOARD_CREDENTIALS_DIR);
    } catch (err) {
      if (err instanceof AppError) throw new AppError('bad_request', `provider ${entry.id}: ${err.message}; nothing was imported`, { provider: entry.id, field: 'credentials_file' });
      throw err;
    }
  });
  const r = await putAdminEntries({ providers, models: parsed.models });
  return { providers: parsed.providers.length, models: parsed.models.length, created: r.created, updated: r.updated, kept_keys: r.keptKeys, revision: r.revision };
}
