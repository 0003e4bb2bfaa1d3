import { randomBytes } from 'node:crypto';

/** Internal header carrying the id the production server assigned to a request into Next's handlers. */
export const REQUEST_ID_HEADER = 'x-switchboard-request-id';

/** "req_" + 16 random bytes; sent as x-request-id on every response and kept with usage and logs. */
export function newRequestId(): string {
  return 'req_' + randomBytes(12).toString('base64url');
}

/** Generation ids, returned as `id` of every chat response and chunk (OpenRouter style). */
export function newGenerationId(): string {
  return 'gen-' + Date.now().toString(36) + '-' + randomBytes(9).toString('base64url');
}

/** The id the server assigned (when it runs behind server/main.ts), else a new one. */
export function requestIdFor(request: Request): string {
  const id = request.headers.get(REQUEST_ID_HEADER);
  return id && /^req_[A-Za-z0-9_-]{16}$/.test(id) ? id : newRequestId();
}
