// The terms of service users accept before using the product (recorded in TermsAcceptance and on the
// user). Publishing new terms = changing CURRENT_TERMS_VERSION: everyone is asked again on their next
// visit to a page that needs a signed-in user.
export const CURRENT_TERMS_VERSION = '2026-11-01';

/** The short version shown on the terms step; the full text lives at TERMS_URL. */
export const TERMS_SUMMARY = [
  'You pay in advance for credit; usage is charged at the listed model prices and prepaid credit is not refundable except where the law says otherwise.',
  'Keep your API keys and account tokens secret. You are responsible for requests made with them until you delete or revoke them.',
  'Requests and responses pass through to the model provider you choose and are subject to its usage policies. We keep usage records (model, tokens, cost), not your prompts.',
  'Do not use the service for anything unlawful, to attack other systems, or to get around a provider’s safety measures.',
  'We may suspend access that breaks these terms or puts the service at risk, and will tell you why.',
] as const;

export const TERMS_URL = '/terms';

export function hasAcceptedCurrentTerms(termsVersion: string | null | undefined): boolean {
  return termsVersion === CURRENT_TERMS_VERSION;
}
