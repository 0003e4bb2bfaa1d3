import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { CREDIT_KINDS, creditHistoryQuery } from './get-credit-history';

export const balanceSchema = z
  .object({
    account_id: z.string(),
    balance: z.number().describe('USD: paid + promotional credit'),
    paid: z.number().describe('USD of purchased / granted paid credit'),
    promotional: z.number().describe('USD of promotional credit (spent first, soonest expiry first)'),
    reserved: z.number().describe('USD held by generations in flight (their worst-case cost) and by a busy account’s credit leases (credit a server process set aside for its next requests; returned after 10 s without use)'),
    available: z.number().describe('USD new requests may still reserve: balance − reserved'),
    balance_micros: z.string().describe('balance in micro-dollars (exact)'),
    available_micros: z.string().describe('available in micro-dollars (exact)'),
    currency: z.literal('usd'),
    isDepleted: z.boolean().describe('true when nothing is available for a new request (requests get 402)'),
  })
  .meta({ id: 'Balance' });

const memberBalanceSchema = z
  .object({ account_id: z.string(), currency: z.literal('usd'), isDepleted: z.boolean() })
  .describe('What members without billing:read see: whether credit remains, not how much')
  .meta({ id: 'MemberBalance' });

const tags = ['Credits'];

defineEndpoint({
  method: 'get',
  path: '/users/{id}/balance',
  summary: 'Credit balance of your personal account',
  description: '`id` is `me` or your user id; another user’s id is a 404.',
  tags,
  params: z.object({ id: z.string() }),
  response: balanceSchema,
  errors: [404],
});
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/balance',
  summary: 'Credit balance of an organization',
  description: 'Any member may call it. Owners, admins and billing members (billing:read) get the amounts; other members only `isDepleted`.',
  tags,
  params: z.object({ id: z.string() }),
  response: z.union([balanceSchema, memberBalanceSchema]),
  errors: [404],
});

defineEndpoint({
  method: 'get',
  path: '/credits',
  operationId: 'getCredits',
  summary: 'Total credit added to and used from your account (OpenRouter’s shape)',
  description:
    'For the account the credential acts for (an API key’s account, or an account token’s active account), from the ledger: ' +
    'total_credits is every credit added net of refunds, disputes and expired promotions; total_usage what generations cost. ' +
    'total_credits − total_usage is the balance. On an organization it needs billing:read (owner, admin, billing): other members get 403.',
  tags,
  response: z.object({ data: z.object({ total_credits: z.number().describe('USD'), total_usage: z.number().describe('USD') }) }),
  errors: [403],
});

const creditHistoryLine = z
  .object({
    id: z.string().describe('The ledger entry id; for a usage line usage-YYYY-MM-DD'),
    at: z.string().describe('When (a usage line: the time of that day’s last charge)'),
    kind: z.enum(CREDIT_KINDS),
    label: z.string().describe('In words, e.g. "Credit purchase", "Usage: 42 charged requests"'),
    note: z.string().nullable(),
    day: z.string().nullable().describe('UTC day of a usage line'),
    entries: z.number().int().describe('Charged requests in a usage line; 1 otherwise'),
    amount: z.number().describe('USD, signed: credit added is positive, usage and refunds negative'),
    amount_micros: z.string(),
    balance: z.number().describe('USD balance (paid + promotional) right after this line'),
    balance_micros: z.string(),
    payment_id: z.string().nullable(),
  })
  .meta({ id: 'CreditHistoryLine' });
const creditHistoryResponse = z.object({ data: z.array(creditHistoryLine), next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last') });
const creditHistoryDescription =
  'The ledger as a statement, newest first: purchases, grants and adjustments, promotions, plan credit, refunds, disputes and expiries one line each, usage one line per UTC day; ' +
  'each with the balance right after it (the sum of every line up to it). Requests refused at admission cost nothing and do not appear.';

defineEndpoint({
  method: 'get',
  path: '/users/{id}/credit-history',
  summary: 'Credit history of your personal account',
  description: `${creditHistoryDescription} \`id\` is \`me\` or your user id.`,
  tags,
  params: z.object({ id: z.string() }),
  query: creditHistoryQuery,
  response: creditHistoryResponse,
  errors: [404],
});
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/credit-history',
  summary: 'Credit history of an organization',
  description: `${creditHistoryDescription} Needs billing:read (owner, admin, billing).`,
  tags,
  params: z.object({ id: z.string() }),
  query: creditHistoryQuery,
  response: creditHistoryResponse,
  errors: [403, 404],
});
