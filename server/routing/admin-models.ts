// The operators' models (GET/POST /api/v1/admin/models, GET/PUT/DELETE /api/v1/admin/models/{id}, and
// catalog:import). The compiled table says what is in force and where each entry comes from; writes go to
// the operators' entries (routing-store.ts), then this instance reloads at once and the others follow the
// revision. SWITCHBOARD_CONFIG's entries are read-only here: the file is reloaded from disk and would undo
// any edit. A builtin cannot be deleted, only replaced or disabled by an operator entry with its id.
import { AppError } from '@/server/errors';
import type { ModelConfigEntry } from './config-schema';
import { checkEntryOrThrow, parseModelInput } from './admin-input';
import { inactiveModelDto, listModelDtos, modelDto, type ModelDto } from './routing-dto';
import { deleteAdminModel, listAdminEntries, putAdminModel, type WriteOptions } from './routing-store';
import type { RoutingTable } from './routing-table';

export interface AdminRouting {
  table(): RoutingTable;
  /** Absent where no table is served (the CLI): the servers follow the revision. */
  reload?(): Promise<void>;
}

/**
 * A PUT that overrides an entry of another source (built-in, CUSTOM_PROVIDERS) and turns it off or on: audited
 * as the switch (disable/enable), not as creating an entry; otherwise the store decides (create/update/…).
 */
export function overrideVerb(existing: { source: string; enabled: boolean } | undefined, enabled: boolean): 'enable' | 'disable' | undefined {
  if (!existing || existing.source === 'admin' || existing.source === 'file' || existing.enabled === enabled) return undefined;
  return enabled ? 'enable' : 'disable';
}

export function readOnlyError(kind: 'Model' | 'Provider', id: string): AppError {
  return new AppError('conflict', `${kind} ${id} is defined in SWITCHBOARD_CONFIG, read-only here: edit the file instead`, { id, source: 'file' });
}

/** Providers an endpoint may name: the table's, and operators' ones it left out. */
export async function knownProviders(table: RoutingTable): Promise<Set<string>> {
  return new Set([...table.providers.keys(), ...(await listAdminEntries()).providers.map((p) => p.id)]);
}

/** The table's model with exactly this id (not an alias). */
function tableModel(table: RoutingTable, id: string) {
  const m = table.models.get(id);
  return m && m.id === id ? m : undefined;
}

/** Problems the last build reported about this entry (an endpoint dropped for an unknown provider…). */
export function warningsAbout(table: RoutingTable, id: string): string[] {
  return table.warnings.filter((w) => w.includes(id));
}

export async function listAdminModels(routing: AdminRouting): Promise<{ data: ModelDto[]; warnings: string[] }> {
  const table = routing.table();
  return { data: listModelDtos(table, (await listAdminEntries()).models), warnings: [...table.warnings] };
}

export async function getAdminModelOrThrow(routing: AdminRouting, id: string): Promise<ModelDto> {
  const m = tableModel(routing.table(), id);
  if (m) return modelDto(m);
  const stored = (await listAdminEntries()).models.find((s) => s.id === id);
  if (stored) return inactiveModelDto(stored);
  throw new AppError('not_found', `Model ${id} not found`, { id });
}

async function assertWritable(table: RoutingTable, model: ModelConfigEntry): Promise<void> {
  if (tableModel(table, model.id)?.source === 'file') throw readOnlyError('Model', model.id);
  checkEntryOrThrow({ model }, await knownProviders(table));
  for (const name of [model.id, ...model.aliases]) {
    const other = table.models.get(name);
    if (other && other.id !== model.id) {
      throw new AppError('bad_request', `${name === model.id ? 'id' : 'aliases'}: "${name}" already names model ${other.id}`, { alias: name, model: other.id });
    }
  }
}

async function afterWrite(routing: AdminRouting, model: ModelConfigEntry): Promise<{ data: ModelDto; warnings: string[] }> {
  if (!routing.reload) return { data: inactiveModelDto(model), warnings: [] };
  await routing.reload();
  const table = routing.table();
  const m = tableModel(table, model.id);
  return { data: m && m.source === 'admin' ? modelDto(m) : inactiveModelDto(model), warnings: warningsAbout(table, model.id) };
}

/** POST: a new id only (409 for an id any source already has: PUT replaces). */
export async function createAdminModel(routing: AdminRouting, body: unknown) {
  const model = parseModelInput(body);
  const table = routing.table();
  const existing = tableModel(table, model.id);
  if (existing?.source === 'file') throw readOnlyError('Model', model.id);
  if (existing) throw new AppError('conflict', `Model ${model.id} already exists (${existing.source}); PUT /api/v1/admin/models/${encodeURIComponent(model.id)} replaces it`, { id: model.id, source: existing.source });
  await assertWritable(table, model);
  await putAdminModel(model, { createOnly: true });
  return afterWrite(routing, model);
}

/** PUT: creates or replaces the operator's entry for `id` (a builtin's id gives an entry that overrides it; see overrideVerb). */
export async function replaceAdminModel(routing: AdminRouting, id: string, body: unknown, write: WriteOptions = {}) {
  const model = parseModelInput(body, id);
  await assertWritable(routing.table(), model);
  const existing = tableModel(routing.table(), id);
  const { created } = await putAdminModel(model, { ...write, auditVerb: write.auditVerb ?? overrideVerb(existing, model.enabled) });
  return { created, ...(await afterWrite(routing, model)) };
}

/** DELETE: removes the operator's entry; a builtin with the same id serves it again (returned as `current`). */
export async function deleteAdminModelEntry(routing: AdminRouting, id: string) {
  const before = tableModel(routing.table(), id);
  if (before?.source === 'file') throw readOnlyError('Model', id);
  const { deleted } = await deleteAdminModel(id);
  if (!deleted) {
    if (before) throw new AppError('conflict', `Model ${id} is ${before.source}, not an operator's entry: to hide it, PUT it with "enabled": false`, { id, source: before.source });
    throw new AppError('not_found', `Model ${id} not found`, { id });
  }
  await routing.reload?.();
  const now = routing.reload ? tableModel(routing.table(), id) : undefined;
  return { deleted: true as const, id, current: now ? modelDto(now) : null };
}

/** The console's switch: the model as it is now, PUT back with `enabled` changed (for a builtin, an operator's entry overriding it). */
export async function setAdminModelEnabled(routing: AdminRouting, id: string, enabled: boolean) {
  const current = await getAdminModelOrThrow(routing, id);
  if (current.read_only) throw readOnlyError('Model', id);
  return replaceAdminModel(routing, id, { ...current, enabled }, { auditVerb: enabled ? 'enable' : 'disable' });
}
