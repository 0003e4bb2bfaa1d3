// The one Stripe client. STRIPE_API_URL points it elsewhere (the local fake in tests: host, port and
// protocol are honoured, so nothing else changes); retries are on, and the SDK sends an idempotency key
// on every retried POST.
import Stripe from 'stripe';
import type { Env } from '@/server/env';

let cached: { client: Stripe; env: Env } | undefined;

/** One client per configuration (tests change the environment between files). */
export function stripeClient(e: Env): Stripe {
  if (cached?.env !== e) cached = { client: createStripeClient(e), env: e };
  return cached.client;
}

export function createStripeClient(e: Env): Stripe {
  if (!e.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set');
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'Switchboard' } };
  if (e.STRIPE_API_URL) {
    const u = new URL(e.STRIPE_API_URL);
    config.host = u.hostname;
    config.protocol = u.protocol === 'http:' ? 'http' : 'https';
    config.port = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  }
  return new Stripe(e.STRIPE_SECRET_KEY, config);
}

/** Webhook signature check on the raw body; 5 minutes of clock tolerance, as Stripe recommends. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function verifyStripeEvent(payload: string, signature: string, secret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(payload, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
}
