import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { redeemPromotionInput } from './redeem-promotion';

export const promotionGrantSchema = z
  .object({
    id: z.string().describe('The grant: this promotion’s credit on this account'),
    account_id: z.string(),
    promotion_id: z.string().nullable(),
    code: z.string().nullable(),
    name: z.string(),
    description: z.string(),
    amount: z.number().describe('USD granted'),
    amount_micros: z.string(),
    remaining: z.number().describe('USD not yet spent'),
    remaining_micros: z.string(),
    expires_at: z.string().nullable().describe('When the remaining credit expires (null: never)'),
    status: z.enum(['active', 'used', 'expired']),
    created_at: z.string(),
  })
  .meta({ id: 'PromotionGrant' });

const tags = ['Promotions'];
const list = z.object({ data: z.array(promotionGrantSchema) });

defineEndpoint({
  method: 'post',
  path: '/promotions/redeem',
  summary: 'Redeem a promotion code',
  description:
    'Credits the promotion to your personal account, or to `account_id` (an organization where you have billing:manage: owners and the billing role, not admins). ' +
    'Each account may redeem a code once. 404: unknown code; 409: already redeemed by this account (`metadata.reason` already_redeemed) or every ' +
    'redemption used (`exhausted`); 410: the code’s redemption deadline passed (`expired`) or it was withdrawn (`inactive`); ' +
    '429: too many unknown codes (20 per hour per user), see Retry-After.',
  tags,
  body: redeemPromotionInput,
  status: 201,
  response: z.object({ data: promotionGrantSchema }),
  errors: [403, 404, 409, 410, 429],
});
defineEndpoint({
  method: 'get',
  path: '/users/{id}/promotions',
  summary: 'Active promotional credit of your personal account',
  description: 'Grants with credit left that has not expired, soonest expiry first (the order usage spends them).',
  tags,
  params: z.object({ id: z.string() }),
  response: list,
  errors: [404],
});
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/promotions',
  summary: 'Active promotional credit of an organization (billing:read)',
  tags,
  params: z.object({ id: z.string() }),
  response: list,
  errors: [403, 404],
});
