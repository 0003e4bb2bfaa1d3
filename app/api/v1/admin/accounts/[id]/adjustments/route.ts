import { adjustAccount } from '@/server/admin/admin-adjustments';
import { adminRoute } from '@/server/http/admin-route';
import { parseBody } from '@/server/http/api-route';
import { z } from 'zod';

export const dynamic = 'force-dynamic';

/** A manual credit (or debit) of the account's paid credit, with a reason: one ADJUSTMENT ledger entry. */
export const POST = adminRoute<{ id: string }>(
  async ({ request, principal, params }) => adjustAccount({ accountId: params.id, actorUserId: principal.userId, body: await parseBody(request, z.unknown()) }),
  { status: 201 },
);
