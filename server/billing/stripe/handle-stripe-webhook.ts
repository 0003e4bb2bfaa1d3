// POST /api/webhooks/stripe. The signature is checked on the raw body (5 minutes of tolerance); a bad one
// is a 400 that changes nothing. Each event id is recorded (WebhookEvent) before it is acted on, so a
// replay of a processed event does nothing; an event whose processing failed is taken up again by
// Stripe's next retry. The work is a few indexed writes, so Stripe gets its 2xx within its timeout.
import type Stripe from 'stripe';
import { db } from '@/server/db';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { paymentProvider } from '../payment-provider';
import { stripeClient, verifyStripeEvent } from './stripe-client';
import { dispatchStripeEvent } from './stripe-event-handlers';

/** A delivery still unprocessed after this long died mid-way; a redelivery may take it over. */
const ABANDONED_AFTER_MS = 60_000;

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

export interface WebhookOutcome {
  received: true;
  event_id: string;
  type: string;
  duplicate: boolean;
}

export async function handleStripeWebhook(p: { payload: string; signature: string | null }): Promise<WebhookOutcome> {
  const e = env();
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) throw new AppError('service_unavailable', 'Stripe webhooks are not configured on this server (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET)');
  if (!p.signature) throw new AppError('bad_request', 'Missing Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = verifyStripeEvent(p.payload, p.signature, e.STRIPE_WEBHOOK_SECRET);
  } catch (err) {
    throw new AppError('bad_request', `Invalid webhook signature: ${(err as Error).message}`);
  }
  if (!(await claimEvent(event, p.payload))) return { received: true, event_id: event.id, type: event.type, duplicate: true };
  const prisma = await db();
  try {
    await dispatchStripeEvent(event, { stripe: stripeClient(e), provider: await paymentProvider() });
  } catch (err) {
    await prisma.webhookEvent.update({ where: { id: event.id }, data: { error: String((err as Error).message ?? err).slice(0, 1000) } });
    throw err; // a 5xx: Stripe retries, and the retry takes the event up again
  }
  await prisma.webhookEvent.update({ where: { id: event.id }, data: { processedAt: new Date(), error: null } });
  return { received: true, event_id: event.id, type: event.type, duplicate: false };
}

/** true when this delivery should act: the first time, or after an earlier attempt failed or was abandoned. */
async function claimEvent(event: Stripe.Event, payload: string): Promise<boolean> {
  const prisma = await db();
  try {
    await prisma.webhookEvent.create({ data: { id: event.id, provider: 'STRIPE', type: event.type, payload: JSON.parse(payload) } });
    return true;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const taken = await prisma.webhookEvent.updateMany({
    where: { id: event.id, processedAt: null, OR: [{ error: { not: null } }, { receivedAt: { lt: new Date(Date.now() - ABANDONED_AFTER_MS) } }] },
    data: { receivedAt: new Date(), error: null },
  });
  return taken.count === 1;
}
