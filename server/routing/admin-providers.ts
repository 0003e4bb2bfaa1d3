// The operators' providers (GET/POST /api/v1/admin/providers, GET/PUT/DELETE /api/v1/admin/providers/{id},
// and catalog:import), with the rules of admin-models.ts. Literal keys are encrypted by routing-store.ts and
// never returned; a key sent as `{ id, stored: true }` keeps its stored secret. A credentials_file must lie in
// SWITCHBOARD_CREDENTIALS_DIR (admin-credentials-file.ts).
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { resolveAdminCredentialsFileOrThrow } from './admin-credentials-file';
import { checkEntryOrThrow, parseProviderInput } from './admin-input';
import { BUILTIN_PROVIDER_IDS, builtinProviders, type BuiltinProvider } from './builtin-providers';
import { knownProviders, overrideVerb, readOnlyError, warningsAbout, type AdminRouting } from './admin-models';
import { inactiveProviderDto, listProviderDtos, providerDto, type ProviderDto } from './routing-dto';
import type { KeyHealthReader } from './runtime-routing';
import { deleteAdminProvider, listAdminEntries, putAdminProvider, type ProviderInput, type WriteOptions } from './routing-store';

export async function listAdminProviders(routing: AdminRouting, health?: KeyHealthReader): Promise<{ data: ProviderDto[]; warnings: string[] }> {
  const table = routing.table();
  return { data: listProviderDtos(table, (await listAdminEntries()).providers, health), warnings: [...table.warnings] };
}

async function storedProvider(id: string) {
  return (await listAdminEntries()).providers.find((p) => p.id === id);
}

export async function getAdminProviderOrThrow(routing: AdminRouting, id: string, health?: KeyHealthReader): Promise<ProviderDto> {
  const p = routing.table().providers.get(id);
  const stored = await storedProvider(id);
  if (p) return providerDto(p, stored, health);
  if (stored) return inactiveProviderDto(stored);
  throw new AppError('not_found', `Provider ${id} not found`, { id });
}

async function afterWrite(routing: AdminRouting, provider: ProviderInput, health?: KeyHealthReader): Promise<{ data: ProviderDto; warnings: string[] }> {
  await routing.reload?.();
  const stored = await storedProvider(provider.id);
  if (!stored) throw new AppError('internal', `Provider ${provider.id} vanished after it was written`);
  const p = routing.reload ? routing.table().providers.get(provider.id) : undefined;
  return { data: p && p.source === 'admin' ? providerDto(p, stored, health) : inactiveProviderDto(stored), warnings: routing.reload ? warningsAbout(routing.table(), provider.id) : [] };
}

/** POST: a new id only (409 for an id any source already has: PUT replaces). */
export async function createAdminProvider(routing: AdminRouting, body: unknown, health?: KeyHealthReader) {
  const provider = resolveAdminCredentialsFileOrThrow(parseProviderInput(body), env().SWITCHBOARD_CREDENTIALS_DIR);
  checkEntryOrThrow({ provider }, await knownProviders(routing.table()));
  const existing = routing.table().providers.get(provider.id);
  if (existing?.source === 'file') throw readOnlyError('Provider', provider.id);
  if (existing) throw new AppError('conflict', `Provider ${provider.id} already exists (${existing.source}); PUT /api/v1/admin/providers/${provider.id} replaces it`, { id: provider.id, source: existing.source });
  await putAdminProvider(provider, { createOnly: true });
  return afterWrite(routing, provider, health);
}

/**
 * PUT: creates or replaces the operator's entry for `id` (a builtin's id gives an entry that overrides it). The
 * override of a built-in or CUSTOM_PROVIDERS' provider that turns it off or on is audited as the switch's
 * provider.disable/enable, as the console's switch is (overrideVerb).
 */
export async function replaceAdminProvider(routing: AdminRouting, id: string, body: unknown, health?: KeyHealthReader, write: WriteOptions = {}) {
  const provider = resolveAdminCredentialsFileOrThrow(parseProviderInput(body, id), env().SWITCHBOARD_CREDENTIALS_DIR);
  checkEntryOrThrow({ provider }, await knownProviders(routing.table()));
  const existing = routing.table().providers.get(id);
  if (existing?.source === 'file') throw readOnlyError('Provider', id);
  const { created } = await putAdminProvider(provider, { ...write, auditVerb: write.auditVerb ?? overrideVerb(existing, provider.enabled) });
  return { created, ...(await afterWrite(routing, provider, health)) };
}

/**
 * DELETE: removes the operator's entry. Refused while operators' models route to it and no built-in provider
 * of that id would take its place: those models would lose the endpoint (or be dropped) without a word.
 */
export async function deleteAdminProviderEntry(routing: AdminRouting, id: string, health?: KeyHealthReader) {
  const before = routing.table().providers.get(id);
  if (before?.source === 'file') throw readOnlyError('Provider', id);
  // Deleting an operator's entry with a built-in's id brings the built-in back.
  if (!BUILTIN_PROVIDER_IDS.has(id)) {
    const users = (await listAdminEntries()).models.filter((m) => m.endpoints.some((e) => e.provider === id)).map((m) => m.id);
    if (users.length) throw new AppError('conflict', `Provider ${id} is used by ${users.join(', ')}: remove those endpoints first, or PUT the provider with "enabled": false`, { id, models: users });
  }
  const { deleted } = await deleteAdminProvider(id);
  if (!deleted) {
    if (before) throw new AppError('conflict', `Provider ${id} is ${before.source}, not an operator's entry: to turn it off, PUT it with "enabled": false`, { id, source: before.source });
    throw new AppError('not_found', `Provider ${id} not found`, { id });
  }
  await routing.reload?.();
  const now = routing.reload ? routing.table().providers.get(id) : undefined;
  return { deleted: true as const, id, current: now ? providerDto(now, undefined, health) : null };
}

/**
 * A built-in provider as an operator's entry that reads its key from the same variable (key_env, never the
 * secret itself), so it can be overridden without anyone typing or storing a key. The variable is named
 * whether or not it is set now: set later (and the servers restarted), the entry reads it as the built-in would.
 */
function builtinAsEntry({ entry, keyVariable }: BuiltinProvider, enabled: boolean) {
  const keys = keyVariable ? [{ id: keyVariable, key_env: keyVariable, weight: 1 }] : [];
  return { ...entry, keys, enabled };
}

/**
 * The console's switch. Operators' entries are listed as configured (stored secrets as `{ id, stored: true }`),
 * so the entry goes back whole; a built-in becomes an operator's entry naming its key variable (deleting that
 * entry brings the built-in back). CUSTOM_PROVIDERS' entries list only usable key ids, not where the secrets
 * come from; a PUT with their key_env does that through the API.
 */
export async function setAdminProviderEnabled(routing: AdminRouting, id: string, enabled: boolean, health?: KeyHealthReader) {
  const current = await getAdminProviderOrThrow(routing, id, health);
  if (current.read_only) throw readOnlyError('Provider', id);
  const builtin = current.source === 'builtin' ? builtinProviders(env()).find((b) => b.entry.id === id) : undefined;
  const write: WriteOptions = { auditVerb: enabled ? 'enable' : 'disable' };
  if (builtin) return replaceAdminProvider(routing, id, builtinAsEntry(builtin, enabled), health, write);
  if (current.source !== 'admin') {
    throw new AppError('conflict', `Provider ${id} is ${current.source}: PUT /api/v1/admin/providers/${id} with its keys (key_env) and "enabled": ${enabled} to override it`, { id, source: current.source });
  }
  return replaceAdminProvider(routing, id, { ...current, enabled }, health, write);
}
