// The audit log's answer: JSON (`{ data, next_cursor }`), or the same page as CSV when the client asks with
// `format=csv` or `Accept: text/csv`; the next page's cursor then travels in `X-Next-Cursor` and a `Link` header.
import type { AuditEntryDto, AuditLogPage, AuditLogQuery } from '@/server/audit/list-audit-log';
import { csvText } from './csv';

const COLUMNS = [
  'created_at', 'id', 'action', 'actor_kind', 'actor_user_id', 'actor_label', 'via', 'ip', 'user_agent', 'target_type', 'target_id', 'before', 'after',
] as const;

function csvRow(e: AuditEntryDto): Record<(typeof COLUMNS)[number], unknown> {
  return {
    created_at: e.created_at,
    id: e.id,
    action: e.action,
    actor_kind: e.actor.kind,
    actor_user_id: e.actor.user_id,
    actor_label: e.actor.label,
    via: e.actor.via,
    ip: e.actor.ip,
    user_agent: e.actor.user_agent,
    target_type: e.target.type,
    target_id: e.target.id,
    before: e.before === null ? '' : JSON.stringify(e.before),
    after: e.after === null ? '' : JSON.stringify(e.after),
  };
}

/** Audit entries as CSV (the REST export's columns); the console's export builds the same file from its pages. */
export function auditLogCsv(entries: AuditEntryDto[]): string {
  return csvText(COLUMNS, entries.map(csvRow));
}

export function wantsCsv(request: Request, query: Pick<AuditLogQuery, 'format'>): boolean {
  if (query.format) return query.format === 'csv';
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(request.headers.get('accept') ?? '');
}

export function auditLogReply(request: Request, query: AuditLogQuery, page: AuditLogPage): AuditLogPage | Response {
  if (!wantsCsv(request, query)) return page;
  const headers: Record<string, string> = {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': 'attachment; filename="audit-log.csv"',
    'cache-control': 'no-store',
  };
  if (page.next_cursor) {
    const next = new URL(request.url);
    next.searchParams.set('cursor', page.next_cursor);
    headers['x-next-cursor'] = page.next_cursor;
    headers.link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  return new Response(auditLogCsv(page.data), { status: 200, headers });
}
