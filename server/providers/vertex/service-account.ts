// A Google service-account key (the JSON `gcloud iam service-accounts keys create` writes), read from the
// provider's credentials_file or credentials_env. Read when the routing table is built: a missing or broken
// key leaves the provider unconfigured with a message saying why, never an exception at load.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ProviderConfigEntry } from '@/server/routing/config-schema';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export const serviceAccountSchema = z.looseObject({
  type: z.literal('service_account', { error: 'type must be "service_account" (a service-account key, not user credentials)' }),
  client_email: z.string().min(1),
  private_key: z.string().includes('PRIVATE KEY', { error: 'private_key must be a PEM private key' }),
  private_key_id: z.string().optional(),
  project_id: z.string().optional(),
  token_uri: z.url({ protocol: /^https?$/ }).default(GOOGLE_TOKEN_URL),
});

export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export type ServiceAccountResult = { ok: true; account: ServiceAccount } | { ok: false; missing: string };

export function readServiceAccount(entry: ProviderConfigEntry, readVar: (name: string) => string | undefined): ServiceAccountResult {
  let text: string | undefined;
  let where: string;
  if (entry.credentials_env !== undefined) {
    where = `variable ${entry.credentials_env}`;
    text = readVar(entry.credentials_env)?.trim() || undefined;
    if (text === undefined) return { ok: false, missing: entry.credentials_env };
  } else if (entry.credentials_file !== undefined) {
    where = `credentials_file ${entry.credentials_file}`;
    try {
      text = readFileSync(entry.credentials_file, 'utf8');
    } catch (err) {
      return { ok: false, missing: `a readable ${where} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})` };
    }
  } else {
    return { ok: false, missing: `credentials_file or credentials_env (a service-account JSON key) for provider "${entry.id}"` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, missing: `a service-account JSON key in ${where} (it is not valid JSON)` };
  }
  const parsed = serviceAccountSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, missing: `a service-account JSON key in ${where} (${issue?.path.join('.') || 'key'}: ${issue?.message ?? 'invalid'})` };
  }
  return { ok: true, account: parsed.data };
}
