// Webhooks and their deliveries as the API shows them: never the secret, only whether one is set.
import { isoOrNull } from '@/server/validation/fields';

export const webhookSelect = { id: true, accountId: true, url: true, events: true, createdAt: true } as const;

type WebhookRow = { id: string; accountId: string; url: string; events: string[]; createdAt: Date };

export function toWebhookDto(w: WebhookRow) {
  return { id: w.id, account_id: w.accountId, url: w.url, events: w.events, created_at: w.createdAt.toISOString() };
}
export type WebhookDto = ReturnType<typeof toWebhookDto>;

export const deliverySelect = {
  id: true,
  eventId: true,
  status: true,
  attempts: true,
  lastHttpStatus: true,
  lastError: true,
  lastAttemptAt: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
  event: { select: { type: true, createdAt: true } },
} as const;

type DeliveryRow = {
  id: string;
  eventId: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: number;
  lastHttpStatus: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  createdAt: Date;
  event: { type: string; createdAt: Date };
};

export function toDeliveryDto(d: DeliveryRow) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.event.type,
    status: d.status.toLowerCase() as Lowercase<DeliveryRow['status']>,
    attempts: d.attempts,
    last_http_status: d.lastHttpStatus,
    last_error: d.lastError,
    event_created_at: d.event.createdAt.toISOString(),
    created_at: d.createdAt.toISOString(),
    last_attempt_at: isoOrNull(d.lastAttemptAt),
    /** Null once the delivery succeeded or gave up. */
    next_attempt_at: d.status === 'PENDING' ? d.nextAttemptAt.toISOString() : null,
    delivered_at: isoOrNull(d.deliveredAt),
  };
}
export type DeliveryDto = ReturnType<typeof toDeliveryDto>;
