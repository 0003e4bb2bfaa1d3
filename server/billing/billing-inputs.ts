// Request schemas of the billing endpoints (validation, tRPC input and the OpenAPI document share them),
// and the bounds they enforce. Amounts are USD with at most cent precision; they become cents (what is
// charged) and micro-dollars (what is credited, 1 USD = 1,000,000) right after parsing.
import { z } from 'zod';
import { safeCallbackUrl } from '@/server/auth/callback-url';
import { isRepresentableInstant, safeString, usdNumber } from '@/server/validation/fields';

export const MIN_PURCHASE_USD = 5;
export const MAX_PURCHASE_USD = 10_000;
export const MAX_AUTO_TOP_UP_THRESHOLD_USD = 10_000;
export const MICROS_PER_CENT = 10_000n;

export const usdAmount = usdNumber({
  min: MIN_PURCHASE_USD,
  max: MAX_PURCHASE_USD,
  decimals: 2,
  minMessage: `The amount must be at least $${MIN_PURCHASE_USD}`,
  maxMessage: `The amount must be at most $${MAX_PURCHASE_USD.toLocaleString('en-US')}`,
}).describe(`USD, ${MIN_PURCHASE_USD}–${MAX_PURCHASE_USD}, at most two decimals`);

export const toCents = (usd: number): number => Math.round(usd * 100);

export const checkoutInput = z.object({
  amount: usdAmount,
  save_card: z
    .boolean()
    .optional()
    .describe('The buyer agrees to keep the card for later purchases and auto top-up: it is saved (as the default payment method) once the checkout is paid. Default false'),
  return_to: safeString()
    .max(500)
    .refine((v) => safeCallbackUrl(v, '') === v, 'return_to must be a path on this site, e.g. /billing')
    .optional()
    .describe('A console path the return page sends the buyer back to (with ?checkout=<outcome>) once the checkout ends'),
});
export type CheckoutInput = z.infer<typeof checkoutInput>;

export const purchaseInput = z.object({
  amount: usdAmount,
  idempotency_key: safeString()
    .min(1)
    .max(200)
    .optional()
    .describe('Repeat the same key to retry safely: one charge and one credit per key (the Idempotency-Key header works too)'),
});
export type PurchaseInput = z.infer<typeof purchaseInput>;

export const autoTopUpInput = z.object({
  enabled: z.boolean(),
  threshold: usdNumber({ min: 0, max: MAX_AUTO_TOP_UP_THRESHOLD_USD, decimals: 2 })
    .optional()
    .describe('USD: a charge that takes the balance below this triggers one top-up (default 5; unchanged when omitted)'),
  amount: usdAmount.optional().describe('USD added by each top-up (default 20; unchanged when omitted)'),
});
export type AutoTopUpInput = z.infer<typeof autoTopUpInput>;

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded', 'disputed'] as const;

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size (1–100, default 20)'),
  cursor: safeString()
    .min(1)
    .max(200)
    // One we did not issue is refused rather than read as "from the start" (a client would page forever).
    .refine((c) => decodeCursor(c) !== null, 'not a cursor returned by this endpoint')
    .optional()
    .describe('next_cursor of the previous page'),
});

export const listPaymentsQuery = listQuery.extend({
  status: z.enum(PAYMENT_STATUSES).optional().describe('Only payments in this state'),
});
export type ListPaymentsQuery = z.infer<typeof listPaymentsQuery>;

export const MAX_SEATS = 10_000;

// The plans page shows these under its Seats field, by themselves: sentences, not zod's "Too small: expected number to be >=1".
const seatCount = z
  .number({ error: (issue) => (typeof issue.input === 'number' && Number.isNaN(issue.input) ? 'Enter a number of seats' : undefined) })
  .int('Enter a whole number of seats')
  .min(1, 'Enter at least 1 seat')
  .max(MAX_SEATS, `Enter at most ${MAX_SEATS.toLocaleString('en-US')} seats`);

export const subscribeInput = z.object({
  plan_id: safeString().min(1).max(64),
  seats: seatCount.optional().describe('Default: the current member count'),
});
export type SubscribeInput = z.infer<typeof subscribeInput>;

export const seatsInput = z.object({ seats: seatCount });

/** Keyset cursor over (createdAt, id), newest first. */
export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at);
  // Decoded text is client input too: an id PostgreSQL can hold, a time Prisma can write.
  if (!id || id.includes('\u0000') || !isRepresentableInstant(createdAt)) return null;
  return { createdAt, id };
}

/** Prisma `where` for "older than the cursor" in (createdAt desc, id desc) order. */
export function olderThan(cursor: string | undefined) {
  const c = decodeCursor(cursor);
  if (!c) return {};
  return { OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }] };
}
