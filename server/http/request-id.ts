import { randomFillSync } from 'node:crypto';

// Ids are made on every request: take their random bytes from a pooled buffer (one CSPRNG call per ~200
// ids) rather than one randomBytes() call each.
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;
function random(n: number): Buffer {
  if (poolAt + n > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += n;
  return pool.subarray(poolAt - n, poolAt);
}

/** Internal header carrying the id the production server assigned to a request into Next's handlers. */
export const REQUEST_ID_HEADER = 'x-switchboard-request-id';

/** "req_" + 16 random bytes; sent as x-request-id on every response and kept with usage and logs. */
export function newRequestId(): string {
  return 'req_' + random(12).toString('base64url');
}

/** Generation ids, returned as `id` of every chat response and chunk (OpenRouter style). */
export function newGenerationId(): string {
  return 'gen-' + Date.now().toString(36) + '-' + random(9).toString('base64url');
}

/** The id the server assigned (when it runs behind server/main.ts), else a new one. */
export function requestIdFor(request: Request): string {
  const id = request.headers.get(REQUEST_ID_HEADER);
  return id && /^req_[A-Za-z0-9_-]{16}$/.test(id) ? id : newRequestId();
}
