import { randomBytes } from 'node:crypto';

/** "req_" + 16 random bytes; sent as x-request-id on every response and kept with usage and logs. */
export function newRequestId(): string {
  return 'req_' + randomBytes(12).toString('base64url');
}

/** Generation ids, returned as `id` of every chat response and chunk (OpenRouter style). */
export function newGenerationId(): string {
  return 'gen-' + Date.now().toString(36) + '-' + randomBytes(9).toString('base64url');
}
