// Test support for test/fake-stripe.ts: products, prices, per-seat subscriptions and their invoices
// (API version 2025-03-31+ shapes: billing periods on the items, the subscription under invoice.parent),
// and the back office's clock: renewing or ending a subscription period.
import type { FakeStripe } from './fake-stripe';
import { invalid, notFound, now, offSessionDecline, StripeApiError, stripeId, type Obj } from './fake-stripe-wire';

const MONTH = 30 * 24 * 3600;

export function handleBillingRequest(f: FakeStripe, method: string, resource: string, id: string | undefined, p: Obj): Obj | null {
  if (resource === 'products' && method === 'POST' && !id) {
    return f.put({ id: stripeId('prod'), object: 'product', name: p.name, metadata: p.metadata ?? {}, active: true, created: now() });
  }
  if (resource === 'prices' && method === 'POST' && !id) {
    if (!f.get(p.product)) throw notFound('product', p.product);
    return f.put({
      id: stripeId('price'), object: 'price', product: p.product, unit_amount: Number(p.unit_amount), currency: p.currency, type: 'recurring',
      recurring: { interval: p.recurring?.interval ?? 'month', interval_count: 1 }, metadata: p.metadata ?? {}, active: true, created: now(),
    });
  }
  if (resource === 'invoice_payments' && method === 'GET' && !id) {
    // GET /v1/invoice_payments?payment[type]=payment_intent&payment[payment_intent]=pi_…: which invoice a payment paid.
    const data = f.list('inpay_').filter((x) => !p.payment?.payment_intent || x.payment.payment_intent === p.payment.payment_intent);
    return { object: 'list', data, has_more: false, url: '/v1/invoice_payments' };
  }
  if (resource === 'subscriptions') {
    if (method === 'POST' && !id) return createSubscription(f, p);
    if (method === 'GET' && id) return f.get(id) ?? (() => { throw notFound('subscription', id); })();
    if (method === 'POST' && id) return updateSubscription(f, id, p);
  }
  return null;
}

/** Charges the subscription's card: a 402 card error when it declines. */
function chargeCard(f: FakeStripe, paymentMethodId: string) {
  const pm = f.get(paymentMethodId);
  if (!pm) throw notFound('payment_method', paymentMethodId);
  const decline = offSessionDecline(pm.card.last4);
  if (decline) throw new StripeApiError(402, { type: 'card_error', ...decline, payment_method: structuredClone(pm) });
}

function line(sub: Obj, item: Obj, quantity: number, amount: number, proration: boolean): Obj {
  return {
    id: stripeId('il'), object: 'line_item', amount, currency: item.price.currency, quantity, description: `${quantity} × seat`,
    period: { start: item.current_period_start, end: item.current_period_end },
    pricing: { type: 'price_details', price_details: { price: item.price.id, product: item.price.product } },
    parent: { type: 'subscription_item_details', subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration } },
  };
}

function invoice(f: FakeStripe, sub: Obj, billingReason: string, total: number, lines: Obj[], paid = true): Obj {
  const item = sub.items.data[0];
  const inv = f.put({
    id: stripeId('in'), object: 'invoice', customer: sub.customer, status: paid ? 'paid' : 'open', billing_reason: billingReason, currency: item.price.currency,
    total, subtotal: total, amount_due: Math.max(0, total), amount_paid: paid ? Math.max(0, total) : 0, amount_remaining: paid ? 0 : Math.max(0, total),
    hosted_invoice_url: `https://invoice.stripe.com/i/fake/${sub.id}`, last_finalization_error: null, created: now(),
    period_start: item.current_period_start, period_end: item.current_period_end,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: structuredClone(sub.metadata) } },
    lines: { object: 'list', data: lines, has_more: false },
  });
  if (paid && total > 0) payInvoice(f, sub, inv);
  return inv;
}

/** A paid invoice's money moves through a payment intent and its charge (refundable, disputable), linked by an invoice payment. */
function payInvoice(f: FakeStripe, sub: Obj, inv: Obj) {
  const pi = f.put({
    id: stripeId('pi'), object: 'payment_intent', amount: inv.amount_paid, amount_received: inv.amount_paid, currency: inv.currency, customer: sub.customer,
    payment_method: sub.default_payment_method, metadata: {}, status: 'succeeded', latest_charge: null, last_payment_error: null, created: now(), livemode: false,
  });
  f.charge(pi);
  f.put({ id: stripeId('inpay'), object: 'invoice_payment', invoice: inv.id, amount_paid: inv.amount_paid, currency: inv.currency, is_default: true, status: 'paid', payment: { type: 'payment_intent', payment_intent: pi.id }, created: now() });
}

function createSubscription(f: FakeStripe, p: Obj): Obj {
  const price = f.get(p.items?.[0]?.price);
  if (!price) throw notFound('price', p.items?.[0]?.price);
  if (!p.default_payment_method) throw invalid('This customer has no attached payment source or default payment method.');
  const quantity = Number(p.items[0].quantity ?? 1);
  chargeCard(f, p.default_payment_method); // error_if_incomplete: a decline creates nothing
  const start = now();
  const sub = f.put({
    id: stripeId('sub'), object: 'subscription', customer: p.customer, status: 'active', cancel_at_period_end: false, cancel_at: null, canceled_at: null, ended_at: null,
    metadata: p.metadata ?? {}, default_payment_method: p.default_payment_method, latest_invoice: null, created: start, start_date: start, livemode: false,
    items: { object: 'list', data: [] as Obj[], has_more: false },
  });
  const item = { id: stripeId('si'), object: 'subscription_item', subscription: sub.id, price: structuredClone(price), quantity, current_period_start: start, current_period_end: start + MONTH };
  sub.items.data.push(item);
  const inv = invoice(f, sub, 'subscription_create', quantity * price.unit_amount, [line(sub, item, quantity, quantity * price.unit_amount, false)]);
  sub.latest_invoice = inv.id;
  f.emit('customer.subscription.created', sub);
  f.emit('invoice.paid', inv);
  return sub;
}

function updateSubscription(f: FakeStripe, id: string, p: Obj): Obj {
  const sub = f.get(id);
  if (!sub) throw notFound('subscription', id);
  if (p.cancel_at_period_end !== undefined) {
    sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
    sub.cancel_at = sub.cancel_at_period_end ? sub.items.data[0].current_period_end : null;
  }
  if (p.items) {
    const item = sub.items.data.find((i: Obj) => i.id === p.items[0].id);
    if (!item) throw invalid(`Invalid subscription item: ${p.items[0].id}`, 'items[0][id]');
    const next = Number(p.items[0].quantity);
    const left = (item.current_period_end - now()) / (item.current_period_end - item.current_period_start);
    const proration = Math.round((next - item.quantity) * item.price.unit_amount * left);
    if (p.proration_behavior === 'always_invoice') {
      if (proration > 0) chargeCard(f, sub.default_payment_method); // error_if_incomplete: nothing changes on a decline
      const from = item.quantity;
      item.quantity = next;
      const inv = invoice(f, sub, 'subscription_update', proration, [line(sub, item, next - from, proration, true)]);
      sub.latest_invoice = inv.id;
      f.emit('customer.subscription.updated', sub);
      f.emit('invoice.paid', inv);
      return sub;
    }
    item.quantity = next;
  }
  f.emit('customer.subscription.updated', sub);
  return sub;
}

/** The period ends: a renewal invoice (paid, or failed with `fail`), or the end of a canceled subscription. */
export function endSubscriptionPeriod(f: FakeStripe, subscriptionId: string, o: { fail?: boolean } = {}): Obj[] {
  const sub = f.get(subscriptionId)!;
  const item = sub.items.data[0];
  const before = f.events.length;
  if (sub.cancel_at_period_end) {
    Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: item.current_period_end });
    f.emit('customer.subscription.deleted', sub);
    return f.events.slice(before);
  }
  Object.assign(item, { current_period_start: item.current_period_end, current_period_end: item.current_period_end + MONTH });
  const amount = item.quantity * item.price.unit_amount;
  const inv = invoice(f, sub, 'subscription_cycle', amount, [line(sub, item, item.quantity, amount, false)], !o.fail);
  sub.latest_invoice = inv.id;
  if (o.fail) {
    sub.status = 'past_due';
    f.emit('invoice.payment_failed', inv);
  } else {
    sub.status = 'active';
    f.emit('invoice.paid', inv);
  }
  f.emit('customer.subscription.updated', sub);
  return f.events.slice(before);
}
