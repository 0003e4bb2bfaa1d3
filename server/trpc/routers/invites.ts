import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { createInvites, createInvitesInput } from '@/server/invites/create-invites';
import { countPendingInvites, listPendingInvites } from '@/server/invites/list-invites';
import { revokeInvite } from '@/server/invites/revoke-invite';
import { accountProcedure, originOf, router } from '../init';

export const invitesRouter = router({
  list: accountProcedure('invites:read', { organizationOnly: true }).query(({ ctx }) => listPendingInvites({ organizationId: ctx.access.accountId })),
  count: accountProcedure('invites:read', { organizationOnly: true }).query(({ ctx }) => countPendingInvites({ organizationId: ctx.access.accountId })),
  /** One result per email; each invited one carries its link (shown once: only its hash is stored). */
  create: accountProcedure('invites:manage', { organizationOnly: true })
    .input(createInvitesInput)
    .mutation(({ ctx, input }) =>
      createInvites({ organizationId: ctx.access.accountId, actor: { userId: ctx.principal.userId, role: ctx.access.role }, input, origin: originOf(ctx) }),
    ),
  revoke: accountProcedure('invites:manage', { organizationOnly: true })
    .input(z.object({ id: safeString().min(1).max(100) }))
    .mutation(({ ctx, input }) => revokeInvite({ organizationId: ctx.access.accountId, inviteId: input.id })),
});
