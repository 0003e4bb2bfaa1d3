import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { getBalanceOrThrow, toBalanceDto } from '@/server/ledger/balance';

export const dynamic = 'force-dynamic';

/** The credit balance of the caller's personal account. */
export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const user = await authorizeUser(principal, params.id);
  return toBalanceDto(await getBalanceOrThrow(user.personalAccountId));
});
