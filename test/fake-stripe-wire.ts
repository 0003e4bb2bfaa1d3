// Test support for test/fake-stripe.ts: Stripe's wire details — bracketed form bodies, object ids,
// error bodies, expansion and the test cards.
import { randomBytes } from 'node:crypto';

export type Obj = Record<string, any>;

/** `a[b][0][c]=v&expand[0]=x` → { a: { b: [{ c: 'v' }] }, expand: ['x'] } (what stripe-node sends). */
export function parseStripeForm(text: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = rawKey.replace(/\]/g, '').split('[');
    let node: any = out;
    for (let i = 0; i < path.length; i++) {
      const key = path[i];
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]);
      if (last) node[key] = value;
      else node = node[key] ??= nextIsIndex ? [] : {};
    }
  }
  return out;
}

let counter = 0;
/** Realistic ids: cs_test_a1b2…, pi_3…, cus_…; unique within a run. */
export function stripeId(prefix: string): string {
  counter++;
  const body = randomBytes(12).toString('base64url').replace(/[-_]/g, 'x');
  return `${prefix}_${prefix === 'cs' ? 'test_' : ''}${counter.toString(36)}${body}`;
}

export const now = () => Math.floor(Date.now() / 1000);

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(body.message ?? 'stripe error');
  }
}

export const notFound = (what: string, id: string) =>
  new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param: 'id' });

export const invalid = (message: string, param?: string) => new StripeApiError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });

export interface TestCard {
  number: string;
  brand: string;
  last4: string;
}

export function testCard(number: string): TestCard {
  const digits = number.replace(/\s/g, '');
  const brand = digits.startsWith('4') ? 'visa' : /^5[1-5]/.test(digits) ? 'mastercard' : /^3[47]/.test(digits) ? 'amex' : 'unknown';
  return { number: digits, brand, last4: digits.slice(-4) };
}

/** Stripe's test cards, by last four digits, for a charge without the buyer present. */
export function offSessionDecline(last4: string): Obj | null {
  switch (last4) {
    case '0002':
    case '0341':
      return { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
    case '9995':
      return { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' };
    case '3155':
      return { code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' };
    default:
      return null;
  }
}

/** Replaces ids by objects along each `expand` path ("latest_charge", "setup_intent.payment_method"). */
export function expand(obj: Obj, paths: unknown, lookup: (id: string) => Obj | undefined): Obj {
  const list = Array.isArray(paths) ? (paths as string[]) : [];
  const copy = structuredClone(obj);
  for (const path of list) {
    let node: Obj | undefined = copy;
    const parts = path.split('.');
    parts.forEach((key, i) => {
      if (!node) return;
      const v = node[key];
      if (typeof v === 'string') node[key] = structuredClone(lookup(v) ?? v);
      node = typeof node[key] === 'object' && i < parts.length - 1 ? node[key] : undefined;
    });
  }
  return copy;
}
