// REST handlers shared by /users/{id}/… and /organizations/{id}/…: the same billing operation on a
// personal account or an organization's account, differing only in the authorization step (a user may
// act on their own account; in an organization, reading needs billing:read and spending billing:manage —
// owners and billing managers). Each app/api route.ts picks one of these, so the twenty-odd route files
// stay one line each and the two families cannot drift apart.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { apiRoute, parseBody, parseQuery } from '@/server/http/api-route';
import { authorizeOrganization, authorizeUser } from '@/server/http/authorize';
import { publicOrigin } from '@/server/http/public-origin';
import { creditHistoryQuery, getCreditHistory } from '@/server/ledger/get-credit-history';
import type { Permission } from '@/server/organizations/permissions';
import { getAutoTopUp, updateAutoTopUp } from '../auto-top-up-settings';
import { autoTopUpInput, checkoutInput, listPaymentsQuery, purchaseInput } from '../billing-inputs';
import { createCreditCheckout } from '../create-credit-checkout';
import { getPayment, getPaymentStatus, getProviderPaymentDetails } from '../get-payment';
import { listPayments } from '../list-payments';
import { createSetupSession, getDefaultPaymentMethod } from '../payment-methods';
import { purchaseCredits } from '../purchase-credits';

export type BillingScope = 'users' | 'organizations';
type Params = { id?: string; paymentId?: string };

interface BillingAccount {
  accountId: string;
  userId: string;
  /** e.g. /api/v1/organizations/org_1, for messages that point at another endpoint. */
  base: string;
}

async function billingAccount(principal: Principal, scope: BillingScope, id: string, permission: Permission): Promise<BillingAccount> {
  if (scope === 'users') {
    const u = await authorizeUser(principal, id);
    return { accountId: u.personalAccountId, userId: u.userId, base: `/api/v1/users/${id}` };
  }
  const o = await authorizeOrganization(principal, id, permission);
  return { accountId: o.accountId, userId: principal.userId, base: `/api/v1/organizations/${id}` };
}

const setupPath = (a: BillingAccount) => `${a.base}/payment-method/setup-session`;

export function listPaymentsRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ request, principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:read');
    return listPayments({ accountId: a.accountId, query: parseQuery(request, listPaymentsQuery) });
  });
}

/** GET …/credit-history: the ledger as a statement (ledger/get-credit-history.ts); billing:read in an organization. */
export function creditHistoryRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ request, principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:read');
    return getCreditHistory({ accountId: a.accountId, query: parseQuery(request, creditHistoryQuery) });
  });
}

export function getPaymentRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:read');
    return getPayment({ accountId: a.accountId, paymentId: params.paymentId! });
  });
}

export function getPaymentStatusRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:read');
    return getPaymentStatus({ accountId: a.accountId, paymentId: params.paymentId! });
  });
}

export function getProviderPaymentRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:read');
    return getProviderPaymentDetails({ accountId: a.accountId, paymentId: params.paymentId! });
  });
}

/** POST …/credits/checkout (users: /users/credits/checkout, the caller's personal account). */
export function checkoutRoute(scope: BillingScope) {
  return apiRoute<Params>(
    async ({ request, principal, params }) => {
      const a = await billingAccount(principal, scope, params.id ?? 'me', 'billing:manage');
      const input = await parseBody(request, checkoutInput);
      return createCreditCheckout({ accountId: a.accountId, userId: a.userId, input, origin: publicOrigin(request.headers) });
    },
    { status: 201 },
  );
}

export function purchaseRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ request, principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:manage');
    const input = await parseBody(request, purchaseInput);
    const header = request.headers.get('idempotency-key')?.trim() || null;
    return purchaseCredits({ accountId: a.accountId, userId: a.userId, input, idempotencyKey: header, setupPath: setupPath(a) });
  });
}

export function getAutoTopUpRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:read');
    return getAutoTopUp({ accountId: a.accountId });
  });
}

export function putAutoTopUpRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ request, principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:manage');
    const input = await parseBody(request, autoTopUpInput);
    return updateAutoTopUp({ accountId: a.accountId, input, setupPath: setupPath(a) });
  });
}

export function getDefaultPaymentMethodRoute(scope: BillingScope) {
  return apiRoute<Params>(async ({ principal, params }) => {
    const a = await billingAccount(principal, scope, params.id!, 'billing:read');
    return { data: await getDefaultPaymentMethod({ accountId: a.accountId }) };
  });
}

export function setupSessionRoute(scope: BillingScope) {
  return apiRoute<Params>(
    async ({ request, principal, params }) => {
      const a = await billingAccount(principal, scope, params.id!, 'billing:manage');
      return createSetupSession({ accountId: a.accountId, origin: publicOrigin(request.headers) });
    },
    { status: 201 },
  );
}
