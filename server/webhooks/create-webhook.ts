// POST /api/v1/organizations/{id}/webhooks and /api/v1/users/{id}/webhooks: a URL and the events it wants.
// The signing secret is generated here, stored encrypted and returned in this answer only.
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { SecretBoxError } from '@/server/crypto/secret-box';
import { db } from '@/server/db';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { safeString } from '@/server/validation/fields';
import { assertWebhookUrlAllowed } from './webhook-address';
import { toWebhookDto, webhookSelect, type WebhookDto } from './webhook-dto';
import { WEBHOOK_EVENT_TYPES, webhookEventTypeSchema } from './webhook-events';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secret';

/** Enough for a few integrations per account; each event fans out to every subscribed webhook. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

export const createWebhookInput = z.strictObject({
  url: safeString().trim().min(1, 'url is required').max(2000).describe('Where events are POSTed: an http(s) URL reaching a public address'),
  events: z
    .array(webhookEventTypeSchema)
    .min(1, 'events must name at least one event')
    .max(WEBHOOK_EVENT_TYPES.length * 2)
    .transform((list) => [...new Set(list)])
    .describe(`Event types to receive: ${WEBHOOK_EVENT_TYPES.join(', ')}`),
});
export type CreateWebhookInput = z.input<typeof createWebhookInput>;

export interface CreatedWebhook {
  data: WebhookDto;
  /** The Standard Webhooks signing secret ("whsec_…"): shown this once, never again. */
  secret: string;
}

export async function createWebhook(p: { accountId: string; userId: string; input: CreateWebhookInput }): Promise<CreatedWebhook> {
  const input = createWebhookInput.parse(p.input);
  const url = await assertWebhookUrlAllowed(input.url, env().WEBHOOK_ALLOW_PRIVATE);
  const secret = generateWebhookSecret();
  let encryptedSecret: string;
  try {
    encryptedSecret = sealWebhookSecret(secret);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    throw new AppError('service_unavailable', 'Webhooks cannot be created: the server has no encryption key for their signing secrets (an operator must set ENCRYPTION_KEY)');
  }
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    // The account row lock serializes concurrent creations, so the cap holds.
    await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${p.accountId} FOR NO KEY UPDATE`;
    const count = await tx.webhook.count({ where: { accountId: p.accountId } });
    if (count >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw new AppError('conflict', `An account may have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one first`, { limit: MAX_WEBHOOKS_PER_ACCOUNT });
    }
    const created = await tx.webhook.create({
      data: { accountId: p.accountId, url: url.toString(), events: input.events, encryptedSecret, createdById: p.userId },
      select: webhookSelect,
    });
    await recordAudit(tx, { accountId: p.accountId, action: 'webhook.create', target: { type: 'webhook', id: created.id }, before: null, after: toWebhookDto(created) });
    return created;
  });
  return { data: toWebhookDto(row), secret };
}
