// The audit log's record of the operators' catalog writes (admin API, console, catalog:import): written by
// routing-store.ts in the write's own transaction, with the actor the edge set (audit-context.ts). The catalog
// belongs to the instance, not to an account, so these entries have no account: the operators' audit log
// (GET /api/v1/admin/audit-log, the console's Admin → Audit log) shows them; no account's log does.
// Payloads are entries in the configuration file's shape without secrets (routing-dto.ts providerAuditView).
import { recordAudit } from '@/server/audit/record-audit';
import type { Prisma } from '@/server/db';
import { providerAuditView } from './routing-dto';
import type { StoredProvider } from './routing-store';

type Tx = Prisma.TransactionClient;
export type CatalogKind = 'MODEL' | 'PROVIDER';
/** enable/disable: the console's switch (and a PUT that changes nothing but `enabled`). */
export type CatalogVerb = 'create' | 'update' | 'delete' | 'enable' | 'disable';

const ACTIONS = {
  MODEL: { create: 'model.create', update: 'model.update', delete: 'model.delete', enable: 'model.enable', disable: 'model.disable' },
  PROVIDER: { create: 'provider.create', update: 'provider.update', delete: 'provider.delete', enable: 'provider.enable', disable: 'provider.disable' },
} as const;

function auditView(kind: CatalogKind, config: unknown): unknown {
  if (config === undefined || config === null) return null;
  return kind === 'PROVIDER' ? providerAuditView(config as StoredProvider) : config;
}

/** Everything but `enabled` the same: the switch's write (or a PUT doing only that) reads as enable/disable. */
function onlyEnabledChanged(before: unknown, after: unknown): boolean {
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) return false;
  const { enabled: was, ...restBefore } = before as Record<string, unknown>;
  const { enabled: now, ...restAfter } = after as Record<string, unknown>;
  return was !== now && JSON.stringify(sorted(restBefore)) === JSON.stringify(sorted(restAfter));
}

/** A canonical form (jsonb does not keep the order of keys). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
}

/** One entry for a write of one model or provider; `before`/`after` are the stored configs (undefined: none). */
export async function recordCatalogWrite(tx: Tx, p: { kind: CatalogKind; id: string; before: unknown; after: unknown; verb?: CatalogVerb }): Promise<void> {
  const verb: CatalogVerb =
    p.verb ??
    (p.after === undefined ? 'delete' : p.before === undefined || p.before === null ? 'create' : onlyEnabledChanged(p.before, p.after) ? ((p.after as { enabled?: boolean }).enabled ? 'enable' : 'disable') : 'update');
  await recordAudit(tx, {
    accountId: null,
    action: ACTIONS[p.kind][verb],
    target: { type: p.kind === 'MODEL' ? 'model' : 'provider', id: p.id },
    before: auditView(p.kind, p.before),
    after: auditView(p.kind, p.after),
  });
}

/** catalog:import: one entry for the whole file (ids and counts; the entries themselves are in the file). */
export async function recordCatalogImport(tx: Tx, p: { providers: string[]; models: string[]; created: number; updated: number; keptKeys: string[] }): Promise<void> {
  await recordAudit(tx, {
    accountId: null,
    action: 'catalog.import',
    target: { type: 'catalog' },
    after: { providers: p.providers, models: p.models, created: p.created, updated: p.updated, kept_keys: p.keptKeys },
  });
}
