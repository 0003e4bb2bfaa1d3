// The operators' console (app/(console)/admin): the same services as /api/v1/admin/, behind the same operator
// check (operatorProcedure). Inputs are the REST schemas, so the console cannot ask for what the API refuses.
import { z } from 'zod';
import { adjustAccount, adjustmentBodySchema } from '@/server/admin/admin-adjustments';
import { adminUsage, adminUsageQuerySchema } from '@/server/admin/admin-usage';
import { adminUsersQuerySchema, listAdminUsers, restoreUser, suspendBodySchema, suspendUser } from '@/server/admin/admin-users';
import { getAdminUserOrThrow } from '@/server/admin/get-admin-user';
import { instanceAuditLogQuery, listInstanceAuditLog } from '@/server/audit/list-audit-log';
import { createAdminModel, deleteAdminModelEntry, listAdminModels, replaceAdminModel, setAdminModelEnabled } from '@/server/routing/admin-models';
import { createAdminProvider, deleteAdminProviderEntry, listAdminProviders, replaceAdminProvider, setAdminProviderEnabled } from '@/server/routing/admin-providers';
import { runtimeKeyHealthReport, runtimeRouting } from '@/server/routing/runtime-routing';
import { safeString } from '@/server/validation/fields';
import { operatorProcedure, router } from '../init';

const id = safeString().min(1).max(200);
const toggle = z.object({ id, enabled: z.boolean() });
// An entry in the configuration file's shape: validated by the services with the REST routes' schemas
// (admin-input.ts), so a bad field is the same 400 (BAD_REQUEST here) with the same message.
const entry = z.record(z.string(), z.unknown());
const replace = z.object({ id, entry });

export const adminRouter = router({
  users: operatorProcedure.input(adminUsersQuerySchema).query(({ input }) => listAdminUsers(input)),
  user: operatorProcedure.input(z.object({ id })).query(({ input }) => getAdminUserOrThrow({ userId: input.id })),
  suspend: operatorProcedure
    .input(suspendBodySchema.extend({ id }))
    .mutation(({ ctx, input }) => suspendUser({ operatorUserId: ctx.principal.userId, userId: input.id, body: { reason: input.reason } })),
  restore: operatorProcedure.input(z.object({ id })).mutation(({ ctx, input }) => restoreUser({ operatorUserId: ctx.principal.userId, userId: input.id })),
  /** Credit (positive) or debit (negative) of paid credit with a reason: one ADJUSTMENT ledger entry. */
  adjust: operatorProcedure
    .input(adjustmentBodySchema.extend({ account_id: id }))
    .mutation(({ ctx, input }) => adjustAccount({ accountId: input.account_id, actorUserId: ctx.principal.userId, body: { amount_usd: input.amount_usd, reason: input.reason } })),
  usage: operatorProcedure.input(adminUsageQuerySchema).query(({ input }) => adminUsage(input)),
  auditLog: operatorProcedure.input(instanceAuditLogQuery).query(({ input }) => listInstanceAuditLog(input)),
  models: operatorProcedure.query(async () => listAdminModels((await runtimeRouting()).routing)),
  setModelEnabled: operatorProcedure.input(toggle).mutation(async ({ input }) => setAdminModelEnabled((await runtimeRouting()).routing, input.id, input.enabled)),
  providers: operatorProcedure.query(async () => {
    const { routing, health } = await runtimeRouting();
    return listAdminProviders(routing, health);
  }),
  setProviderEnabled: operatorProcedure.input(toggle).mutation(async ({ input }) => {
    const { routing, health } = await runtimeRouting();
    return setAdminProviderEnabled(routing, input.id, input.enabled, health);
  }),
  createModel: operatorProcedure.input(entry).mutation(async ({ input }) => createAdminModel((await runtimeRouting()).routing, input)),
  replaceModel: operatorProcedure.input(replace).mutation(async ({ input }) => replaceAdminModel((await runtimeRouting()).routing, input.id, input.entry)),
  deleteModel: operatorProcedure.input(z.object({ id })).mutation(async ({ input }) => deleteAdminModelEntry((await runtimeRouting()).routing, input.id)),
  createProvider: operatorProcedure.input(entry).mutation(async ({ input }) => {
    const { routing, health } = await runtimeRouting();
    return createAdminProvider(routing, input, health);
  }),
  replaceProvider: operatorProcedure.input(replace).mutation(async ({ input }) => {
    const { routing, health } = await runtimeRouting();
    return replaceAdminProvider(routing, input.id, input.entry, health);
  }),
  deleteProvider: operatorProcedure.input(z.object({ id })).mutation(async ({ input }) => {
    const { routing, health } = await runtimeRouting();
    return deleteAdminProviderEntry(routing, input.id, health);
  }),
  keyHealth: operatorProcedure.query(() => runtimeKeyHealthReport()),
});
