// The sandbox's test cards, modelled on Stripe's (https://docs.stripe.com/testing):
//   4242 4242 4242 4242  succeeds                4000 0000 0000 0002  declined (generic_decline)
//   4000 0000 0000 9995  declined (insufficient_funds)
//   4000 0000 0000 0341  saves fine, every later charge is declined
//   4000 0025 0000 3155  needs 3-D Secure: fine with the buyer present, refused off-session
// Any other number that passes the Luhn check succeeds.

export type CardCheck =
  | { ok: true; brand: string; last4: string }
  | { ok: false; code: 'invalid_number' | 'card_declined'; declineCode: string | null; message: string };

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

const DECLINE_AT_ENTRY: Record<string, { declineCode: string; message: string }> = {
  '4000000000000002': { declineCode: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

/** A card typed on the sandbox checkout page (the buyer is present). */
export function checkEnteredCard(raw: string): CardCheck {
  const digits = raw.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) {
    return { ok: false, code: 'invalid_number', declineCode: null, message: 'Your card number is invalid.' };
  }
  const decline = DECLINE_AT_ENTRY[digits];
  if (decline) return { ok: false, code: 'card_declined', ...decline };
  return { ok: true, brand: cardBrand(digits), last4: digits.slice(-4) };
}

/** An off-session charge of a saved card, decided by its last four digits. */
export function offSessionOutcome(last4: string): { ok: true } | { ok: false; code: string; declineCode: string | null; message: string; requiresAction: boolean } {
  switch (last4) {
    case '0002':
    case '0341':
      return { ok: false, code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.', requiresAction: false };
    case '9995':
      return { ok: false, code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.', requiresAction: false };
    case '3155':
      return { ok: false, code: 'authentication_required', declineCode: 'authentication_required', message: 'This payment requires authentication.', requiresAction: true };
    default:
      return { ok: true };
  }
}

/** "12 / 34", "12/2034" → { month, year } in the future, else null. */
export function parseExpiry(raw: string, now = new Date()): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(raw);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return null;
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) return null;
  return { month, year };
}
