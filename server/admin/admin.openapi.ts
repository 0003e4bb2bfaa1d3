// The operators' console endpoints (users, adjustments, usage) in the OpenAPI document.
import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { adjustmentBodySchema } from './admin-adjustments';
import { adminUsageQuerySchema } from './admin-usage';
import { adminUsersQuerySchema, suspendBodySchema } from './admin-users';
import { RECENT_ENTRIES } from './get-admin-user';

const ADMIN = 'Only operators (ADMIN_EMAILS, or `npm run cli -- user:admin --email E`) with a personal API key or an auth token; everyone else gets 403. ';
const TAG = 'Admin: console';

const adminUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    created_at: z.string(),
    is_operator: z.boolean().describe('The flag (ADMIN_EMAILS operators are not flagged)'),
    suspended_at: z.string().nullable(),
    suspended_reason: z.string().nullable(),
    personal_account_id: z.string(),
    personal_balance: z.number().describe('USD, paid + promotional'),
    personal_balance_micros: z.string(),
    organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'billing', 'member']) })),
  })
  .meta({ id: 'AdminUser' });

const userId = z.object({ id: z.string().describe('The user id') });

defineEndpoint({
  method: 'get',
  path: '/admin/users',
  summary: 'Search users',
  description: ADMIN + 'Users whose email or name contains `q` (any case), by id; `next_cursor` is null on the last page.',
  tags: [TAG],
  query: adminUsersQuerySchema,
  response: z.object({ data: z.array(adminUserSchema), next_cursor: z.string().nullable() }),
  errors: [403],
});
const ledgerEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(['purchase', 'promotion', 'plan_credit', 'refund', 'dispute', 'dispute_reversal', 'promotion_expiry', 'adjustment']),
  amount: z.number().describe('USD; negative for a debit'),
  amount_micros: z.string(),
  balance_after: z.number().describe('USD, paid + promotional, right after the entry'),
  note: z.string().nullable().describe('An adjustment’s reason'),
  actor_user_id: z.string().nullable().describe('The operator or user who made it; null for the system'),
  created_at: z.string(),
});

defineEndpoint({
  method: 'get',
  path: '/admin/users/{id}',
  summary: 'A user with their accounts and balances',
  description:
    ADMIN +
    `The search result's fields, plus every account the user can spend from (the personal account, then each organization) with its balance (as GET /credits/balance) and its latest ${RECENT_ENTRIES} ledger entries other than usage (payments, adjustments, refunds, promotions), newest first.`,
  tags: [TAG],
  params: userId,
  response: z.object({
    data: adminUserSchema.extend({
      accounts: z.array(
        z.object({
          id: z.string(),
          kind: z.enum(['personal', 'organization']),
          name: z.string(),
          role: z.string().describe("The user's role there (owner of their personal account)"),
          balance: z.record(z.string(), z.unknown()).describe('As GET /credits/balance'),
          recent_entries: z.array(ledgerEntrySchema),
        }),
      ),
    }),
  }),
  errors: [403, 404],
});
defineEndpoint({
  method: 'post',
  path: '/admin/users/{id}/suspend',
  summary: 'Suspend a user',
  description:
    ADMIN +
    'From the next request, every API key and auth token of the user gets 403 with metadata.reason `user_suspended` (REST and gateway), and sign-in is refused. ' +
    'Suspending again replaces the reason. Operators cannot suspend themselves (400). Recorded in the audit log of the personal account (user.suspend).',
  tags: [TAG],
  params: userId,
  body: suspendBodySchema,
  response: z.object({ data: adminUserSchema }),
  errors: [403, 404],
});
defineEndpoint({
  method: 'post',
  path: '/admin/users/{id}/restore',
  summary: "Lift a user's suspension",
  description: ADMIN + 'Recorded in the audit log of the personal account (user.restore).',
  tags: [TAG],
  params: userId,
  response: z.object({ data: adminUserSchema }),
  errors: [403, 404],
});

const usd = (what: string) => ({ [what]: z.number().describe('USD'), [`${what}_micros`]: z.string().describe('Exact, micro-dollars') });

defineEndpoint({
  method: 'post',
  path: '/admin/accounts/{id}/adjustments',
  summary: 'Credit or debit an account by hand',
  description:
    ADMIN +
    "One ADJUSTMENT ledger entry of paid credit with the reason as its note, recorded in the audit log (account.adjustment). A debit may not take the account's paid credit below zero (409 insufficient_paid_credit); promotional credit is never touched. The account of a deleted organization takes no adjustment (409 organization_deleted). " +
    'Card payments are refunded through Stripe (the billing refund path); this is for manual credit refunds and corrections.',
  tags: [TAG],
  params: z.object({ id: z.string().describe('The account id: a personal account or an organization') }),
  body: adjustmentBodySchema,
  status: 201,
  response: z.object({
    data: z.object({
      entry: z.object({ id: z.string(), kind: z.literal('adjustment'), amount: z.number(), amount_micros: z.string(), reason: z.string(), balance_after: z.number() }),
      balance: z.record(z.string(), z.unknown()).describe('The account balance after the entry (as GET /credits)'),
    }),
  }),
  errors: [403, 404, 409],
});

const usageFigures = {
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  ...usd('charged'),
  ...usd('provider_cost'),
  ...usd('margin'),
};

defineEndpoint({
  method: 'get',
  path: '/admin/usage',
  summary: 'Usage, cost and margin of the whole instance',
  description:
    ADMIN +
    'Every account, in [from, to) (default: the last 30 days). charged = what accounts were charged. provider_cost per request: 0 for BYOK (the account\'s own key), else what the provider reported, else our list price for what was served (charge + unbilled). margin = charged − provider_cost.',
  tags: [TAG],
  query: adminUsageQuerySchema,
  response: z.object({
    from: z.string(),
    to: z.string(),
    group_by: z.enum(['model', 'provider', 'account']),
    data: z.array(z.object({ model: z.string().optional(), provider: z.string().optional(), account: z.string().optional(), ...usageFigures })).describe('One row per group, most charged first; the key is named after group_by'),
    totals: z.object(usageFigures),
  }),
  errors: [403],
});
