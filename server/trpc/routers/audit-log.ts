// The active account's audit log, filtered and a page at a time; same permission and service as
// GET /api/v1/{organizations,users}/{id}/audit-log (the console builds CSV from these pages itself).
import { auditLogQuery, listAuditLog } from '@/server/audit/list-audit-log';
import { accountProcedure, router } from '../init';

export const auditLogRouter = router({
  list: accountProcedure('audit:read')
    .input(auditLogQuery.omit({ format: true }))
    .query(({ ctx, input }) => listAuditLog({ accountId: ctx.access.accountId, query: input })),
});
