// The event types a webhook may receive, with a line each for the form, and the form's schema: the same
// event list as the server's (server/webhooks/webhook-events.ts holds no server-only code).
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type AccountEventType } from '@/server/webhooks/webhook-events';

export const WEBHOOK_EVENTS = WEBHOOK_EVENT_TYPES;

export const EVENT_DESCRIPTIONS: Record<AccountEventType, string> = {
  'balance.low': 'The balance fell below the alert threshold',
  'limit.threshold': 'A key or member reached 80% or 100% of its limit',
  'payment.succeeded': 'A payment went through',
  'payment.failed': 'A payment failed',
  'auto_top_up.failed': 'An automatic top-up could not be made',
  'key.created': 'An API key was created',
  'key.deleted': 'An API key was deleted',
  'member.joined': 'Someone joined (invite or SSO)',
  'member.removed': 'A member was removed',
};

export const createWebhookFormSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Enter the URL events should go to')
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), 'Enter an http(s) URL such as https://example.com/hooks'),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'Choose at least one event'),
});
