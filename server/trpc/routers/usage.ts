// Usage of the active account: the same queries and scopes as GET /organizations/{id}/usages and
// …/metrics (a personal account is its owner's, so they see all of it).
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { memberUsageSummaryInput, summarizeMemberUsage } from '@/server/console/summarize-member-usage';
import { generationQuery, getGeneration } from '@/server/usage/get-generation';
import { getUsageMetrics, metricsQuery } from '@/server/usage/get-usage-metrics';
import { queryUsage, type UsageGroups, type UsagePage } from '@/server/usage/query-usage';
import { organizationUsageQuery } from '@/server/usage/usage-query';
import { organizationUsageScope } from '@/server/usage/usage-scope';
import { accountProcedure, router } from '../init';

const listInput = organizationUsageQuery.omit({ group_by: true });
const groupsInput = organizationUsageQuery.omit({ cursor: true, limit: true }).extend({ group_by: z.enum(['day', 'model']) });

export const usageRouter = router({
  /** A page of generations, newest first (cursor paging). */
  list: accountProcedure('usage:read-own')
    .input(listInput)
    .query(async ({ ctx, input }) => (await queryUsage({ scope: organizationUsageScope(ctx.access, ctx.principal.userId, input.user_id), query: input })) as UsagePage),
  /** One generation's full record (the activity log's detail), within the active account; as GET /generation. */
  generation: accountProcedure('usage:read-own')
    .input(generationQuery)
    .query(({ ctx, input }) => getGeneration({ userId: ctx.principal.userId, generationId: input.id, withinAccountId: ctx.access.accountId })),
  /** Aggregates per UTC day or per model, with the list's filters. */
  groups: accountProcedure('usage:read-own')
    .input(groupsInput)
    .query(async ({ ctx, input }) => (await queryUsage({ scope: organizationUsageScope(ctx.access, ctx.principal.userId, input.user_id), query: { ...input, limit: 1 } })) as UsageGroups),
  /** Totals, a gap-free series and a per-model breakdown (spend, tokens, cache, latency). */
  metrics: accountProcedure('usage:read-own')
    .input(metricsQuery.extend({ user_id: safeString().min(1).max(100).optional() }))
    .query(({ ctx, input }) => getUsageMetrics({ scope: organizationUsageScope(ctx.access, ctx.principal.userId, input.user_id), query: input })),
  /** Spend per member over a period (organizations; usage:read-all). */
  byMember: accountProcedure('usage:read-all', { organizationOnly: true })
    .input(memberUsageSummaryInput)
    .query(({ ctx, input }) => summarizeMemberUsage({ organizationId: ctx.access.accountId, query: input })),
});
