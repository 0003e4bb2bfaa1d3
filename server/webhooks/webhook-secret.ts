// A webhook's signing secret in the Standard Webhooks format: "whsec_" + base64 of 32 random bytes (the
// specification wants 24 to 64). It must be readable again to sign, so it is stored encrypted (AES-256-GCM,
// crypto/secret-box.ts), not hashed; it is returned once, when the webhook is created.
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from '@/server/crypto/secret-box';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function sealWebhookSecret(secret: string): string {
  return encryptSecret(secret);
}

export function openWebhookSecret(stored: string): string {
  return decryptSecret(stored);
}
