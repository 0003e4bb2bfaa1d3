import { auditLogQuery, listAuditLog } from '@/server/audit/list-audit-log';
import { apiRoute, parseQuery } from '@/server/http/api-route';
import { auditLogReply } from '@/server/http/audit-log-reply';
import { authorizeUser } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

/** The user's personal account (its keys, tokens, payments…), for the user themself. */
export const GET = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const user = await authorizeUser(principal, params.id);
  const query = parseQuery(request, auditLogQuery);
  return auditLogReply(request, query, await listAuditLog({ accountId: user.personalAccountId, query }));
});
