'use client';

// The audit log's filters: an action or every action of an object, who made the change, and a period.
import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { SelectField, TextField } from '@/components/console/fields';
import { useTRPC } from '@/components/console/trpc';
import { AUDIT_ACTIONS } from '@/server/audit/audit-actions';

export interface AuditFilters {
  action: string;
  actor: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { action: '', actor: '', from: '', to: '' };

const ACTIONS = Object.keys(AUDIT_ACTIONS).sort();
const OBJECTS = [...new Set(ACTIONS.map((a) => a.slice(0, a.indexOf('.') + 1)))];

/** The filters as the audit log's query takes them (dates are whole UTC days; `to` includes its day). */
export function auditQuery(f: AuditFilters) {
  return {
    ...(f.action ? { action: f.action } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.from ? { from: `${f.from}T00:00:00.000Z` } : {}),
    ...(f.to ? { to: new Date(Date.parse(`${f.to}T00:00:00.000Z`) + 86_400_000).toISOString() } : {}),
  };
}

export function AuditFilterBar({ value, onChange }: { value: AuditFilters; onChange: (f: AuditFilters) => void }) {
  const trpc = useTRPC();
  const { isOrganization, session } = useConsoleSession();
  const members = useQuery({ ...trpc.organization.members.queryOptions(), enabled: isOrganization });
  const set = (patch: Partial<AuditFilters>) => onChange({ ...value, ...patch });
  return (
    <div role="group" aria-label="Filter the audit log" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <SelectField id="audit-action" label="Action" value={value.action} onChange={(e) => set({ action: e.target.value })}>
        <option value="">All actions</option>
        <optgroup label="Every action on">
          {OBJECTS.map((o) => (
            <option key={o} value={o}>
              {o.slice(0, -1).replace(/_/g, ' ')} (all)
            </option>
          ))}
        </optgroup>
        <optgroup label="One action">
          {ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </optgroup>
      </SelectField>
      <SelectField id="audit-actor" label="Changed by" value={value.actor} onChange={(e) => set({ actor: e.target.value })}>
        <option value="">Anyone</option>
        {isOrganization ? (
          (members.data ?? []).map((m) => (
            <option key={m.id} value={m.id}>
              {m.name || m.email}
            </option>
          ))
        ) : (
          <option value={session.user.id}>You</option>
        )}
      </SelectField>
      <TextField id="audit-from" label="From" type="date" value={value.from} max={value.to || undefined} onChange={(e) => set({ from: e.target.value })} />
      <TextField id="audit-to" label="To" type="date" value={value.to} min={value.from || undefined} onChange={(e) => set({ to: e.target.value })} />
    </div>
  );
}
