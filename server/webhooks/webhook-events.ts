// The account events a webhook may subscribe to, the `data` each carries, and which of them are alerts
// (also emailed to an organization's owners and billing managers, or to the user of a personal account).
// Money is in USD numbers, like the rest of the API. README.md ("Webhooks and alerts") shows the payloads.
import { z } from 'zod';
import { microsToUsd } from '@/server/ledger/money';

export const WEBHOOK_EVENT_TYPES = [
  'balance.low',
  'limit.threshold',
  'payment.succeeded',
  'payment.failed',
  'auto_top_up.failed',
  'key.created',
  'key.deleted',
  'member.joined',
  'member.removed',
] as const;

export type AccountEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/**
 * Sent to one endpoint when its owner asks (POST …/webhooks/{webhookId}/test, the console's "Send test"),
 * whatever that endpoint subscribes to; nothing subscribes to it.
 */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export interface WebhookTestEventData {
  webhook_id: string;
  /** The id of the user who asked for it. */
  requested_by: string;
  message: string;
}

/** Events that are also sent by email. */
export const ALERT_EVENT_TYPES: readonly AccountEventType[] = ['balance.low', 'limit.threshold', 'payment.failed', 'auto_top_up.failed'];

export function isAlertEvent(type: string): boolean {
  return (ALERT_EVENT_TYPES as readonly string[]).includes(type);
}

export interface ApiKeyRef {
  id: string;
  name: string;
  hint: string;
  user_id: string;
}

export interface PaymentRef {
  id: string;
  kind: string;
  status: string;
  amount_cents: number;
  /** Credit the payment buys, USD. */
  credit: number;
}

/** What payment events say of a payment. */
export function paymentRef(p: { id: string; kind: string; status: string; amountCents: number; creditMicros: bigint }): PaymentRef {
  return { id: p.id, kind: p.kind.toLowerCase(), status: p.status.toLowerCase(), amount_cents: p.amountCents, credit: microsToUsd(p.creditMicros) };
}

export interface MemberRef {
  user_id: string;
  email: string;
}

/** The `data` of each event type. */
export interface AccountEventData {
  'balance.low': { balance: number; threshold: number };
  'limit.threshold': {
    subject: 'api_key' | 'member';
    api_key?: ApiKeyRef;
    member?: MemberRef;
    /** 80 or 100. */
    threshold_percent: number;
    limit: number;
    /** Settled spend in the current window when the crossing was seen. */
    spent: number;
    limit_reset: string;
    window_started_at: string;
  };
  'payment.succeeded': { payment: PaymentRef };
  'payment.failed': { payment: PaymentRef; reason: string };
  'auto_top_up.failed': { reason: string; payment_id: string | null };
  'key.created': { api_key: ApiKeyRef & { credit_limit: number | null; limit_reset: string; expires_at: string | null } };
  'key.deleted': { api_key: ApiKeyRef; deleted_by: string | null; reason: 'deleted' | 'member_removed' };
  'member.joined': { member: MemberRef & { role: string }; via: 'invite' | 'sso' };
  'member.removed': { member: MemberRef & { role: string }; removed_by: string; revoked_api_keys: number };
}
