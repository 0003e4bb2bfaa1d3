// The operators' routing entries (admin API, `catalog:import`), stored one row per model or provider in the
// configuration file's shape, and the revision every instance polls to know when to rebuild its table.
// Literal provider keys are encrypted before they reach the database (crypto/secret-box.ts) and decrypted
// only by loadAdminEntries, for the table builder; every other read sees a hint (`sk-…abcd`), never the key.
import { db, Prisma } from '@/server/db';
import { decryptSecret, encryptSecret, SecretBoxError, secretHint } from '@/server/crypto/secret-box';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { recordCatalogImport, recordCatalogWrite } from './catalog-audit';
import { modelConfigSchema, providerConfigSchema, type KeyConfig, type ModelConfigEntry, type ProviderConfigEntry } from './config-schema';

/** A provider key as stored: a variable's name, or the encrypted key with its display hint. */
export interface StoredKey {
  id: string;
  weight: number;
  key_env?: string;
  /** `v1:<iv>:<tag>:<ciphertext>` (secret-box.ts). */
  key_secret?: string;
  key_hint?: string;
}
export type StoredProvider = Omit<ProviderConfigEntry, 'keys'> & { keys: StoredKey[] };

/** A key in an admin write: as in the file, or `{ id, keep: true }` to keep the secret stored under that id. */
export type ProviderKeyInput = KeyConfig | { id: string; weight: number; keep: true };
export type ProviderInput = Omit<ProviderConfigEntry, 'keys'> & { keys: ProviderKeyInput[] };

export interface AdminEntries {
  revision: number;
  providers: ProviderConfigEntry[];
  models: ModelConfigEntry[];
  /** Rows that could not be used (a key that no longer decrypts, a row an older version wrote), by id. */
  warnings: string[];
}

const REVISION_ROW = 1;

/** One cheap read (one row): the runtime polls it and rebuilds its table when it changed. */
export async function routingRevision(): Promise<number> {
  const row = await (await db()).routingRevision.findUnique({ where: { id: REVISION_ROW }, select: { revision: true } });
  return row?.revision ?? 0;
}

/**
 * The operators' entries, keys decrypted, and the revision they belong to. The revision is read first: a
 * write committed between the two reads then shows newer entries under an older revision, and the next poll
 * loads again (harmless); the other order could pair a new revision with old entries and miss the change.
 */
export async function loadAdminEntries(): Promise<AdminEntries> {
  const revision = await routingRevision();
  const rows = await (await db()).routingEntry.findMany({ orderBy: [{ kind: 'asc' }, { id: 'asc' }] });
  const out: AdminEntries = { revision, providers: [], models: [], warnings: [] };
  for (const row of rows) {
    if (row.kind === 'MODEL') {
      const parsed = modelConfigSchema.safeParse(row.config);
      if (parsed.success) out.models.push(parsed.data);
      else out.warnings.push(`admin model ${row.id}: stored entry is not valid (${parsed.error.issues[0]?.message}); skipped`);
      continue;
    }
    const stored = row.config as unknown as StoredProvider;
    const keys: KeyConfig[] = [];
    for (const k of stored.keys ?? []) {
      if (k.key_env) keys.push({ id: k.id, key_env: k.key_env, weight: k.weight });
      else if (k.key_secret) {
        try {
          keys.push({ id: k.id, key: decryptSecret(k.key_secret), weight: k.weight });
        } catch (err) {
          // The provider keeps its other keys; the operator re-enters this one (or restores ENCRYPTION_KEY).
          out.warnings.push(`admin provider ${row.id}: key ${k.id} cannot be decrypted, skipped: ${(err as Error).message}`);
        }
      }
    }
    const parsed = providerConfigSchema.safeParse({ ...stored, keys });
    if (parsed.success) out.providers.push(parsed.data);
    else out.warnings.push(`admin provider ${row.id}: stored entry is not valid (${parsed.error.issues[0]?.message}); skipped`);
  }
  return out;
}

/** The stored entries as they are (keys as hints, nothing decrypted), for the admin API and the CLI. */
export async function listAdminEntries(): Promise<{ providers: StoredProvider[]; models: ModelConfigEntry[] }> {
  const rows = await (await db()).routingEntry.findMany({ orderBy: [{ kind: 'asc' }, { id: 'asc' }] });
  return {
    providers: rows.filter((r) => r.kind === 'PROVIDER').map((r) => inFileOrder(r.config as unknown as StoredProvider)),
    // Through the schema: PostgreSQL's jsonb keeps keys in its own order; the file's order reads better.
    models: rows.filter((r) => r.kind === 'MODEL').map((r) => modelConfigSchema.safeParse(r.config).data ?? (r.config as unknown as ModelConfigEntry)),
  };
}

/** A stored provider with its fields in the file's order (jsonb does not keep it). */
function inFileOrder(p: StoredProvider): StoredProvider {
  const { id, type, name, base_url, keys, headers, supports_stream_options, enabled, ...rest } = p;
  const orderedKeys = keys.map(({ id: keyId, key_env, key_secret, key_hint, weight }) => ({ id: keyId, ...(key_env ? { key_env } : { key_secret, key_hint }), weight }));
  return { id, type, ...(name !== undefined ? { name } : {}), ...(base_url !== undefined ? { base_url } : {}), keys: orderedKeys, headers, supports_stream_options, enabled, ...rest };
}

type Tx = Prisma.TransactionClient;
type Kind = 'MODEL' | 'PROVIDER';

async function bumpRevision(tx: Tx): Promise<number> {
  const row = await tx.routingRevision.upsert({
    where: { id: REVISION_ROW },
    create: { id: REVISION_ROW, revision: 1 },
    update: { revision: { increment: 1 } },
    select: { revision: true },
  });
  return row.revision;
}

export interface WriteResult {
  created: boolean;
  revision: number;
}

export interface WriteOptions {
  /** POST: refuse (409) when an admin entry with this id exists. */
  createOnly?: boolean;
  /** The console's switch: audited as enable/disable even when it creates the entry (a built-in's override). */
  auditVerb?: 'enable' | 'disable';
}

/**
 * Runs `write` in a transaction that first bumps the revision: that takes the revision row's lock, so writes
 * (keep-a-secret edits included) run one after the other, each seeing what the previous one left.
 */
async function writeTransaction<T>(write: (tx: Tx) => Promise<T>): Promise<T & { revision: number }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const revision = await bumpRevision(tx);
    return { ...(await write(tx)), revision };
  });
}

/**
 * Upserts one entry; `build` gets the stored config (if any) and returns the new one. Returns whether it was
 * new. Each write is audited in its transaction (catalog-audit.ts), unless the caller records one entry for
 * many writes (catalog:import).
 */
async function upsertEntry(tx: Tx, kind: Kind, id: string, build: (previous: unknown) => Prisma.InputJsonValue, options: WriteOptions & { audit?: boolean } = {}): Promise<boolean> {
  const previous = await tx.routingEntry.findUnique({ where: { kind_id: { kind, id } }, select: { config: true } });
  if (previous && options.createOnly) throw new AppError('conflict', `${kind === 'MODEL' ? 'Model' : 'Provider'} ${id} already exists`, { id });
  const config = build(previous?.config);
  await tx.routingEntry.upsert({ where: { kind_id: { kind, id } }, create: { kind, id, config }, update: { config } });
  if (options.audit !== false) await recordCatalogWrite(tx, { kind, id, before: previous?.config, after: config, verb: options.auditVerb });
  return !previous;
}

async function deleteEntry(kind: Kind, id: string): Promise<{ deleted: boolean; revision: number | null }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const previous = await tx.routingEntry.findUnique({ where: { kind_id: { kind, id } }, select: { config: true } });
    // Nothing deleted, nothing changed: the revision stays, and no instance reloads for nothing.
    if (!previous) return { deleted: false, revision: null };
    await tx.routingEntry.delete({ where: { kind_id: { kind, id } } });
    await recordCatalogWrite(tx, { kind, id, before: previous.config, after: undefined });
    return { deleted: true, revision: await bumpRevision(tx) };
  });
}

const modelConfig = (model: ModelConfigEntry) => () => model as unknown as Prisma.InputJsonValue;

export function putAdminModel(model: ModelConfigEntry, options: WriteOptions = {}): Promise<WriteResult> {
  return writeTransaction(async (tx) => ({ created: await upsertEntry(tx, 'MODEL', model.id, modelConfig(model), options) }));
}

export function deleteAdminModel(id: string) {
  return deleteEntry('MODEL', id);
}

/** Stores a provider: literal keys encrypted, `{ id, keep: true }` keys taken from the stored entry. */
export function putAdminProvider(provider: ProviderInput, options: WriteOptions = {}): Promise<WriteResult> {
  // Encrypted before the transaction: a missing encryption key is the caller's 400 before anything is locked.
  const build = providerConfig(provider, false);
  return writeTransaction(async (tx) => ({ created: await upsertEntry(tx, 'PROVIDER', provider.id, build.config, options) }));
}

export function deleteAdminProvider(id: string) {
  return deleteEntry('PROVIDER', id);
}

/**
 * catalog:import: every provider and model upserted in one transaction (one revision, so instances reload
 * once). An import never deletes a stored secret: a provider's stored keys that the file does not list
 * (catalog:export leaves them out) are kept, after the file's keys, and reported.
 */
export async function putAdminEntries(entries: { providers: ProviderInput[]; models: ModelConfigEntry[] }) {
  const builds = entries.providers.map((p) => providerConfig(p, true));
  return writeTransaction(async (tx) => {
    let created = 0;
    for (const [i, p] of entries.providers.entries()) if (await upsertEntry(tx, 'PROVIDER', p.id, builds[i].config, { audit: false })) created++;
    for (const m of entries.models) if (await upsertEntry(tx, 'MODEL', m.id, modelConfig(m), { audit: false })) created++;
    const keptKeys = builds.flatMap((b, i) => b.kept.map((keyId) => `${entries.providers[i].id}/${keyId}`));
    const updated = entries.providers.length + entries.models.length - created;
    await recordCatalogImport(tx, { providers: entries.providers.map((p) => p.id), models: entries.models.map((m) => m.id), created, updated, keptKeys });
    return { created, updated, keptKeys };
  });
}

/** The stored form of a provider, built against the stored entry inside the transaction. */
function providerConfig(provider: ProviderInput, keepUnlistedSecrets: boolean) {
  const prepared = provider.keys.map((k, i) => prepareKey(k, i));
  assertUniqueKeyIds(prepared.map((k) => k.id));
  const kept: string[] = [];
  const config = (previous: unknown): Prisma.InputJsonValue => {
    const storedKeys = new Map(((previous as StoredProvider | undefined)?.keys ?? []).map((k) => [k.id, k]));
    const keys = prepared.map((k, i): StoredKey => {
      if (!('keep' in k)) return k;
      const stored = storedKeys.get(k.id);
      if (!stored) throw new AppError('bad_request', `keys.${i}: provider ${provider.id} has no stored key "${k.id}" to keep; send key or key_env`, { key_id: k.id });
      return { ...stored, weight: k.weight };
    });
    if (keepUnlistedSecrets) {
      const listed = new Set(keys.map((k) => k.id));
      for (const stored of storedKeys.values()) {
        if (stored.key_secret && !listed.has(stored.id)) {
          keys.push(stored);
          kept.push(stored.id);
        }
      }
    }
    return { ...provider, keys } as unknown as Prisma.InputJsonValue;
  };
  return { config, kept };
}

function prepareKey(k: ProviderKeyInput, index: number): StoredKey | { id: string; weight: number; keep: true } {
  if ('keep' in k) return k;
  // The file's default ids (config-schema.ts), made explicit so that a later edit can name the key.
  const id = k.id ?? k.key_env ?? `key-${index + 1}`;
  if (k.key_env) return { id, weight: k.weight, key_env: k.key_env };
  return { id, weight: k.weight, key_secret: encryptKeyOrThrow(k.key!, index), key_hint: secretHint(k.key!) };
}

function encryptKeyOrThrow(key: string, index: number): string {
  try {
    return encryptSecret(key);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    const why = env().embedded ? err.message : 'ENCRYPTION_KEY is not set, and on PostgreSQL one is needed to store a key';
    throw new AppError('bad_request', `keys.${index}.key: cannot store a key: ${why}. Set ENCRYPTION_KEY (32 bytes, base64 or hex) on every instance, or use key_env to name a variable holding the key.`);
  }
}

function assertUniqueKeyIds(ids: string[]): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) throw new AppError('bad_request', `keys.${i}.id: duplicate key id "${id}" (give each key its own id)`, { key_id: id });
    seen.add(id);
  });
}
