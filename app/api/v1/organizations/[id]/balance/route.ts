import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { getBalanceOrThrow, toBalanceDto, toMemberBalanceDto } from '@/server/ledger/balance';
import { roleAllows } from '@/server/organizations/permissions';

export const dynamic = 'force-dynamic';

/** Every member may ask whether credit remains; the amounts need billing:read (owner, admin, billing). */
export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'usage:read-own');
  const balance = await getBalanceOrThrow(access.accountId);
  return roleAllows(access.role, 'billing:read') ? toBalanceDto(balance) : toMemberBalanceDto(balance);
});
