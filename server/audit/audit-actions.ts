// Every action the audit log records, `<object>.<verb>`, with what it means: the OpenAPI description and the
// README list these. A service that records a new action adds it here (audit-actions.test.ts checks that every
// action named in a recordAudit call of the code base is listed).
export const AUDIT_ACTIONS = {
  'api_key.create': 'An API key was created (after: the key without its secret)',
  'api_key.delete': 'An API key was deleted (before: the key)',
  'api_key.rotate': 'An API key got a new secret; the old one was revoked at once or after a grace period (before/after: hints, previous_key_expires_at)',
  'api_key.update': 'An API key was changed: name, disabled, limits, expiry, models, rate limits (before/after: the key)',
  'member.limit_update': "A member's spend limit changed (before/after: amount and reset)",
  'provider_key.set': "The account's own key for a provider (BYOK) was saved or replaced (provider and hint only)",
  'provider_key.delete': "The account's own key for a provider (BYOK) was deleted (provider and hint only)",
  'webhook.create': 'A webhook was added (after: its URL and events, never the secret)',
  'webhook.delete': 'A webhook was removed (before: its URL and events)',
  'sso.create': "The organization's SSO issuer was configured (after: issuer, client id, domains, default role; never the secret)",
  'sso.update': "The organization's SSO configuration changed (before/after, never the secret)",
  'sso.delete': "The organization's SSO configuration was removed",
  'sso.domain_verify': 'A domain of the SSO configuration was verified by its DNS TXT record',
  'member.join_sso': 'Someone joined by signing in through the organization’s SSO issuer (after: the member, with the default role)',
  'auth_token.create': 'An account auth token was issued (device flow, editor sign-in) — personal account',
  'auth_token.revoke': 'An account auth token was revoked — personal account',
  'organization.create': 'The organization was created (after: name, slug, settings, owner)',
  'organization.update': 'Name, slug or settings changed (before/after: name, slug, settings)',
  'organization.delete': 'The organization was deleted (keys revoked, balance forfeited)',
  'member.role_change': "A member's role changed (before/after: the member)",
  'member.remove': 'A member was removed (their keys on the organization revoked)',
  'member.leave': 'A member left the organization',
  'invite.create': 'An invite was sent (before: the pending invite it replaced, if any)',
  'invite.revoke': 'A pending invite was revoked',
  'invite.accept': 'An invite was accepted (after: the new member)',
  'user.update': 'Profile (name, image) changed — personal account',
  'user.password_change': 'The user changed (or set) their password; their account auth tokens and other browser sessions were revoked — personal account',
  'user.two_factor_enable': 'Two-factor authentication (TOTP) was turned on; recovery codes issued; other browser sessions signed out — personal account',
  'user.two_factor_disable': 'Two-factor authentication was turned off (with a code); other browser sessions signed out — personal account',
  'browser_session.revoke': 'A console browser session was signed out from Account settings (before: device, address, times) — personal account',
  'browser_session.revoke_others': 'Every other console browser session of the user was signed out (after: how many) — personal account',
  'user.sign_in_method_unlink': 'A sign-in method (GitHub, Google…) was unlinked from the user — personal account',
  'user.delete': 'The user deleted their account — personal account',
  'user.operator_grant': 'The user was made an operator (CLI user:admin) — personal account',
  'user.operator_revoke': "The user's operator flag was cleared — personal account",
  'user.suspend': "An operator suspended the user: keys, tokens and sign-in refused (before/after: suspended_at, suspended_reason) — personal account",
  'user.restore': "An operator lifted the user's suspension — personal account",
  'account.adjustment': 'An operator credited or debited paid credit by hand, with a reason (admin API; after: the ledger entry)',
  'payment.create': 'A payment was started: checkout, direct purchase or auto top-up',
  'payment.succeeded': 'A payment succeeded and its credit was added (subscription invoices included)',
  'payment.failed': 'A payment failed (after.reason says why)',
  'payment.canceled': 'A pending payment was canceled (abandoned checkout)',
  'payment.refund': 'The refunded amount of a payment grew (before/after: refunded_amount_cents)',
  'payment.disputed': 'A dispute was opened on a payment',
  'payment.dispute_closed': 'A dispute was closed (after.outcome: won, lost…)',
  'payment_method.set_default': 'A card was saved as the default payment method (before: the one it replaced)',
  'auto_top_up.update': 'Auto top-up settings changed (before/after: enabled, threshold, amount)',
  'auto_top_up.disable': 'Auto top-up switched itself off (declined card, no card), by the system',
  'credits.grant': 'Credit was granted by an operator (CLI credits:grant) or the seed',
  'promotion.redeem': 'A promotion code was redeemed',
  'promotion.grant': 'A promotion was granted by an operator (CLI promotion:grant)',
  'plan.subscribe': 'The organization subscribed to a paid plan',
  'plan.activate': 'The subscription became active after its first payment',
  'plan.change': 'The subscription moved to another plan',
  'plan.seats_change': 'The number of seats changed',
  'plan.cancel': 'The plan was set to end at the end of the period',
  'plan.resume': 'A scheduled cancellation was withdrawn',
  'plan.end': 'The subscription ended (back to the free plan)',
  'plan.past_due': 'A renewal payment failed: the subscription is past due',
  'plan.reactivate': 'A past-due subscription is active again',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The list as Markdown lines (OpenAPI description). */
export function auditActionsMarkdown(): string {
  return Object.entries(AUDIT_ACTIONS)
    .map(([action, meaning]) => `- \`${action}\`: ${meaning}`)
    .join('\n');
}
