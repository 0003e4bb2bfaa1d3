'use client';

// Audit entries as cards (they read on a phone as on a desktop): when, the action, who and from where, the
// object, and the before/after values on demand.
import { formatDateTime } from '@/components/console/format';
import { StatusBadge } from '@/components/console/status-badge';
import type { AuditEntryDto } from '@/server/audit/list-audit-log';

function actorText(a: AuditEntryDto['actor']): string {
  return a.label ?? a.user_id ?? a.kind.toLowerCase();
}

export function AuditEntryList({ entries }: { entries: AuditEntryDto[] }) {
  return (
    <ol aria-label="Audit entries" className="divide-y divide-border rounded-xl border border-border">
      {entries.map((e) => (
        <li key={e.id} className="px-4 py-3">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <StatusBadge tone="accent" className="font-mono">
              {e.action}
            </StatusBadge>
            <span className="text-sm text-foreground">{actorText(e.actor)}</span>
            {e.actor.via ? <span className="text-xs text-muted">via {e.actor.via.toLowerCase()}</span> : null}
            <time dateTime={e.created_at} className="ml-auto text-xs text-muted">
              {formatDateTime(e.created_at)}
            </time>
          </div>
          <p className="mt-1 text-xs break-all text-muted">
            {e.target.type}
            {e.target.id ? <span className="font-mono"> {e.target.id}</span> : null}
            {e.actor.ip ? <> · from {e.actor.ip}</> : null}
          </p>
          {e.before !== null || e.after !== null ? (
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer font-medium text-accent-text">Changes</summary>
              <div className="mt-2 grid gap-2 md:grid-cols-2">
                {(['before', 'after'] as const).map((side) => (
                  <div key={side} className="min-w-0">
                    <p className="font-medium text-muted capitalize">{side}</p>
                    <pre tabIndex={0} aria-label={`${side} ${e.action}`} className="mt-1 max-h-64 overflow-auto rounded-lg bg-surface p-2 font-mono text-[11px] leading-4 text-foreground">{e[side] === null ? '—' : JSON.stringify(e[side], null, 2)}</pre>
                  </div>
                ))}
              </div>
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
