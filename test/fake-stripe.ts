// Test support: a local fake of the parts of Stripe's API that Switchboard uses, reached through
// STRIPE_API_URL (the real stripe SDK talks to it over HTTP). It speaks Stripe's wire format (form-encoded
// bracketed bodies, `expand[]`, JSON objects with realistic ids, 402 card errors), honours the
// Idempotency-Key header (same key → same answer, even concurrently; a key reused with other parameters is
// a 400), and sends webhooks signed with stripe.webhooks.generateTestHeaderString to `webhookUrl`.
// Tests play the buyer and Stripe's back office through methods (completeCheckout, refund, openDispute…),
// and may switch automatic delivery off to deliver events themselves, twice or out of order.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { handleBillingRequest } from './fake-stripe-billing';
import { expand, invalid, notFound, now, offSessionDecline, parseStripeForm, StripeApiError, stripeId, testCard, type Obj } from './fake-stripe-wire';

export type { Obj } from './fake-stripe-wire';

export class FakeStripe {
  readonly webhookSecret = 'whsec_fake_switchboard_tests';
  url = '';
  /** The app's POST /api/webhooks/stripe; events are only recorded while it is null. */
  webhookUrl: string | null = null;
  /** Deliver each event as it happens (asynchronously, like Stripe); false: tests call deliver(). */
  autoDeliver = true;
  readonly objects = new Map<string, Obj>();
  readonly events: Obj[] = [];
  readonly deliveries: { eventId: string; type: string; status: number }[] = [];
  readonly requests: { method: string; path: string; idempotencyKey: string | null }[] = [];
  private readonly idempotency = new Map<string, { params: string; answer: Promise<{ status: number; body: Obj }> }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private server!: http.Server;

  static async start(): Promise<FakeStripe> {
    const fake = new FakeStripe();
    fake.server = http.createServer((req, res) => void fake.serve(req, res));
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  async close(): Promise<void> {
    await this.settled();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  /** Resolves once every automatic webhook delivery so far has been answered. */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  get(id: string): Obj | undefined {
    return this.objects.get(id);
  }

  put(o: Obj): Obj {
    this.objects.set(o.id, o);
    return o;
  }

  /** Every object whose id starts with `prefix` ("pi_", "sub_", "in_"…), oldest first. */
  list(prefix: string): Obj[] {
    return [...this.objects.values()].filter((o) => o.id.startsWith(prefix));
  }

  // ───────────── events and webhooks ─────────────

  emit(type: string, object: Obj): Obj {
    const event = { id: stripeId('evt'), object: 'event', api_version: '2026-10-28.endive', created: now(), livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object: structuredClone(object) } };
    this.events.push(event);
    if (this.autoDeliver && this.webhookUrl) {
      // After the current API answer, like Stripe.
      const p = new Promise((r) => setTimeout(r, 5)).then(() => this.deliver(event)).catch(() => undefined);
      this.inFlight.add(p);
      void p.finally(() => this.inFlight.delete(p));
    }
    return event;
  }

  /** Posts an event to the app, signed (or with the given signature / secret, to forge one). */
  async deliver(event: Obj, o: { secret?: string; signature?: string; payload?: string } = {}): Promise<{ status: number; body: any }> {
    if (!this.webhookUrl) throw new Error('webhookUrl is not set');
    const payload = o.payload ?? JSON.stringify(event, null, 2);
    const signature = o.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: o.secret ?? this.webhookSecret });
    const res = await fetch(this.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    const body = await res.json().catch(() => null);
    this.deliveries.push({ eventId: event.id, type: event.type, status: res.status });
    return { status: res.status, body };
  }

  eventsOfType(type: string): Obj[] {
    return this.events.filter((e) => e.type === type);
  }

  // ───────────── the HTTP API ─────────────

  private async serve(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = req.method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8');
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, idempotencyKey: key });
    let answer: Promise<{ status: number; body: Obj }>;
    const run = () => this.answer(req.method ?? 'GET', url.pathname, parseStripeForm(text));
    if (req.method === 'POST' && key) {
      const seen = this.idempotency.get(key);
      const params = `${url.pathname}?${text}`;
      if (seen && seen.params !== params) {
        answer = Promise.resolve({ status: 400, body: { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}'.` } } });
      } else if (seen) answer = seen.answer;
      else {
        answer = run();
        this.idempotency.set(key, { params, answer });
      }
    } else answer = run();
    const { status, body } = await answer;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${stripeId('fake')}`, ...(key ? { 'idempotency-key': key } : {}) });
    res.end(JSON.stringify(body));
  }

  private async answer(method: string, path: string, params: Obj): Promise<{ status: number; body: Obj }> {
    try {
      return { status: 200, body: this.route(method, path, params) };
    } catch (err) {
      if (err instanceof StripeApiError) return { status: err.status, body: { error: err.body } };
      return { status: 500, body: { error: { type: 'api_error', message: (err as Error).message } } };
    }
  }

  private route(method: string, path: string, p: Obj): Obj {
    const [, , resource, id, action] = path.split('/'); // /v1/<resource>/<id>/<action>
    const show = (o: Obj | undefined, what: string, oid: string) => {
      if (!o) throw notFound(what, oid);
      return this.expanded(o, p.expand);
    };
    if (resource === 'checkout' && id === 'sessions') {
      const sid = action;
      if (method === 'POST' && !sid) return this.createCheckoutSession(p);
      if (method === 'GET' && sid) return show(this.get(sid), 'checkout.session', sid);
      const verb = path.split('/')[5]; // /v1/checkout/sessions/<id>/expire
      if (method === 'POST' && sid && verb === 'expire') return this.expireOpenCheckout(sid);
    }
    if (resource === 'customers' && method === 'POST' && !id) {
      return this.put({ id: stripeId('cus'), object: 'customer', created: now(), livemode: false, name: p.name ?? null, email: p.email ?? null, metadata: p.metadata ?? {}, invoice_settings: { default_payment_method: null } });
    }
    if (resource === 'payment_intents' && method === 'POST' && !id) return this.createPaymentIntent(p);
    if (method === 'GET' && id && ['customers', 'payment_intents', 'setup_intents', 'payment_methods', 'charges', 'invoices', 'disputes'].includes(resource)) {
      return show(this.get(id), resource.replace(/s$/, ''), id);
    }
    const billing = handleBillingRequest(this, method, resource, id, p);
    if (billing) return this.expanded(billing, p.expand);
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  expanded(o: Obj, paths: unknown): Obj {
    return expand(o, paths, (id) => this.get(id));
  }

  private createCheckoutSession(p: Obj): Obj {
    if (!p.success_url) throw invalid('Missing required param: success_url.', 'success_url');
    if (p.mode === 'payment' && !p.line_items?.[0]?.price_data?.unit_amount) throw invalid('Missing required param: line_items.', 'line_items');
    const sfu = p.payment_intent_data?.setup_future_usage;
    if (sfu !== undefined) {
      if (p.mode !== 'payment') throw invalid('You can only pass in `payment_intent_data` when `mode` is `payment`.', 'payment_intent_data');
      if (sfu !== 'on_session' && sfu !== 'off_session') throw invalid(`Invalid payment_intent_data[setup_future_usage]: must be one of on_session or off_session`, 'payment_intent_data[setup_future_usage]');
    }
    const amount = p.mode === 'payment' ? Number(p.line_items[0].price_data.unit_amount) * Number(p.line_items[0].quantity ?? 1) : null;
    const id = stripeId('cs');
    return this.put({
      id, object: 'checkout.session', mode: p.mode, status: 'open', payment_status: p.mode === 'setup' ? 'no_payment_required' : 'unpaid',
      url: `${this.url}/c/pay/${id}`, customer: p.customer ?? null, client_reference_id: p.client_reference_id ?? null, metadata: p.metadata ?? {},
      amount_total: amount, currency: p.mode === 'payment' ? p.line_items[0].price_data.currency : null, payment_intent: null, setup_intent: null,
      payment_intent_data: p.payment_intent_data ?? null, success_url: p.success_url, cancel_url: p.cancel_url ?? null,
      expires_at: now() + 24 * 3600, created: now(), livemode: false,
    });
  }

  /** A card payment method for `customer` (the buyer typed `number`). */
  createCard(number: string, customer: string | null): Obj {
    const card = testCard(number);
    return this.put({ id: stripeId('pm'), object: 'payment_method', type: 'card', customer, created: now(), card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date().getFullYear() + 3, funding: 'credit', country: 'US' } });
  }

  /** A succeeded charge (and its receipt) for a payment intent. */
  charge(pi: Obj): Obj {
    const pm = this.get(pi.payment_method);
    const ch = this.put({
      id: stripeId('ch'), object: 'charge', amount: pi.amount, amount_captured: pi.amount, amount_refunded: 0, refunded: false, captured: true, disputed: false, status: 'succeeded', paid: true,
      currency: pi.currency, customer: pi.customer, payment_intent: pi.id, payment_method: pi.payment_method, receipt_url: `https://pay.stripe.com/receipts/${pi.id}`,
      payment_method_details: { type: 'card', card: { brand: pm?.card.brand, last4: pm?.card.last4 } }, metadata: {}, created: now(),
    });
    pi.latest_charge = ch.id;
    return ch;
  }

  /** Off-session confirm of a saved card: succeeded, or a 402 card error with the failed intent inside. */
  private createPaymentIntent(p: Obj): Obj {
    const pm = this.get(p.payment_method);
    if (!pm) throw notFound('payment_method', p.payment_method);
    const pi = this.put({
      id: stripeId('pi'), object: 'payment_intent', amount: Number(p.amount), amount_received: 0, currency: p.currency, customer: p.customer ?? null, payment_method: pm.id,
      description: p.description ?? null, metadata: p.metadata ?? {}, status: 'requires_confirmation', latest_charge: null, last_payment_error: null, created: now(), livemode: false,
      off_session: p.off_session === 'true',
    });
    pi.client_secret = `${pi.id}_secret_fake`;
    const decline = p.confirm === 'true' ? offSessionDecline(pm.card.last4) : null;
    if (decline) {
      pi.status = decline.code === 'authentication_required' ? 'requires_action' : 'requires_payment_method';
      pi.last_payment_error = { type: 'card_error', ...decline, payment_method: structuredClone(pm) };
      this.emit('payment_intent.payment_failed', pi);
      throw new StripeApiError(402, { type: 'card_error', ...decline, payment_intent: structuredClone(pi), payment_method: structuredClone(pm) });
    }
    if (p.confirm === 'true') {
      pi.status = 'succeeded';
      pi.amount_received = pi.amount;
      this.charge(pi);
      this.emit('payment_intent.succeeded', pi);
    }
    return pi;
  }

  // ───────────── the buyer and the back office ─────────────

  /** The buyer finishes a checkout with `card`; with `delayed` the payment is pending (bank debit). */
  completeCheckout(sessionId: string, o: { card?: string; delayed?: boolean } = {}): Obj[] {
    const s = this.get(sessionId);
    if (!s || s.status !== 'open') throw new Error(`checkout ${sessionId} is not open`);
    const pm = this.createCard(o.card ?? '4242424242424242', s.customer);
    const before = this.events.length;
    if (s.mode === 'setup') {
      const seti = this.put({ id: stripeId('seti'), object: 'setup_intent', status: 'succeeded', customer: s.customer, payment_method: pm.id, usage: 'off_session', metadata: s.metadata, created: now() });
      Object.assign(s, { status: 'complete', setup_intent: seti.id });
      this.emit('setup_intent.succeeded', seti);
    } else {
      const pi = this.put({
        id: stripeId('pi'), object: 'payment_intent', amount: s.amount_total, amount_received: 0, currency: s.currency, customer: s.customer, payment_method: pm.id,
        metadata: s.payment_intent_data?.metadata ?? {}, status: o.delayed ? 'processing' : 'succeeded', latest_charge: null, last_payment_error: null, created: now(), livemode: false,
        setup_future_usage: s.payment_intent_data?.setup_future_usage ?? null,
      });
      // Stripe attaches the card to the customer only when it is to be kept (setup_future_usage).
      if (!pi.setup_future_usage) pm.customer = null;
      Object.assign(s, { status: 'complete', payment_status: o.delayed ? 'unpaid' : 'paid', payment_intent: pi.id });
      if (!o.delayed) {
        pi.amount_received = pi.amount;
        this.charge(pi);
        this.emit('payment_intent.succeeded', pi);
      }
    }
    this.emit('checkout.session.completed', s);
    return this.events.slice(before);
  }

  /** The delayed payment of a completed checkout clears (or fails). */
  settleDelayedPayment(sessionId: string, succeeded: boolean): Obj[] {
    const s = this.get(sessionId)!;
    const pi = this.get(s.payment_intent)!;
    const before = this.events.length;
    if (succeeded) {
      Object.assign(pi, { status: 'succeeded', amount_received: pi.amount });
      this.charge(pi);
      s.payment_status = 'paid';
      this.emit('payment_intent.succeeded', pi);
      this.emit('checkout.session.async_payment_succeeded', s);
    } else {
      Object.assign(pi, { status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'payment_method_not_available', message: 'The bank debit failed.' } });
      this.emit('payment_intent.payment_failed', pi);
      this.emit('checkout.session.async_payment_failed', s);
    }
    return this.events.slice(before);
  }

  /** POST /v1/checkout/sessions/:id/expire: only an open session can be expired (Stripe answers 400 otherwise). */
  private expireOpenCheckout(sessionId: string): Obj {
    const s = this.get(sessionId);
    if (!s) throw notFound('checkout.session', sessionId);
    if (s.status !== 'open') throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`, 'session');
    s.status = 'expired';
    this.emit('checkout.session.expired', s);
    return this.expanded(s, undefined);
  }

  expireCheckout(sessionId: string): Obj {
    const s = this.get(sessionId)!;
    s.status = 'expired';
    return this.emit('checkout.session.expired', s);
  }

  /** Refunds `amount` cents (default: the rest) of the payment intent's charge. */
  refund(paymentIntentId: string, amount?: number): Obj {
    const ch = this.get(this.get(paymentIntentId)!.latest_charge)!;
    const cents = amount ?? ch.amount - ch.amount_refunded;
    this.put({ id: stripeId('re'), object: 'refund', amount: cents, charge: ch.id, payment_intent: paymentIntentId, status: 'succeeded', created: now() });
    Object.assign(ch, { amount_refunded: ch.amount_refunded + cents, refunded: ch.amount_refunded + cents >= ch.amount });
    return this.emit('charge.refunded', ch);
  }

  openDispute(paymentIntentId: string, amount?: number): Obj {
    const ch = this.get(this.get(paymentIntentId)!.latest_charge)!;
    ch.disputed = true;
    const dp = this.put({ id: stripeId('dp'), object: 'dispute', amount: amount ?? ch.amount, currency: ch.currency, charge: ch.id, payment_intent: paymentIntentId, reason: 'fraudulent', status: 'needs_response', created: now(), livemode: false });
    return this.emit('charge.dispute.created', dp);
  }

  closeDispute(disputeId: string, status: 'won' | 'lost'): Obj {
    const dp = this.get(disputeId)!;
    dp.status = status;
    return this.emit('charge.dispute.closed', dp);
  }
}
