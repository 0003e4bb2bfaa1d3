// The query string of the usage endpoints (one schema: it validates requests and documents them in
// OpenAPI) and the opaque pagination cursor. Rows are ordered newest first by (createdAt, id); the cursor
// is the position of the last row returned, so pages stay stable while new usage is being written.
import { z } from 'zod';
import { isoInstant, isRepresentableInstant, safeString } from '@/server/validation/fields';
import { AppError } from '@/server/errors';

const instant = isoInstant();

export const USAGE_PAGE_MAX = 200;

const baseUsageQuery = z.object({
  from: instant.optional().describe('Only usage at or after this time (inclusive)'),
  to: instant.optional().describe('Only usage before this time (exclusive)'),
  model: safeString().min(1).max(200).optional().describe('A model id, e.g. openai/gpt-4o-mini'),
  api_key_id: safeString().min(1).max(100).optional().describe('Only generations made with this API key'),
  status: z
    .enum(['success', 'error', 'aborted', 'refused'])
    .optional()
    .describe('success, error (failed after admission, e.g. every upstream failed), aborted (the client left) or refused (turned away at admission: 402, 429, 403, 400, 503; listing only, never in aggregates)'),
  include_refused: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
    .optional()
    .describe('Listing: also return requests refused at admission (status refused, cost 0), as the activity log does. Default false; aggregates (group_by) never count them'),
  limit: z.coerce.number().int().min(1).max(USAGE_PAGE_MAX).default(50).describe(`Page size, 1–${USAGE_PAGE_MAX} (default 50)`),
  cursor: safeString().max(200).optional().describe('next_cursor of the previous page'),
  group_by: z.enum(['day', 'model']).optional().describe('Aggregate instead of listing: one row per UTC day or per model (not paginated)'),
});

/** GET /users/{id}/usages: the caller's own generations on any account. */
export const userUsageQuery = baseUsageQuery.extend({
  account_id: safeString().min(1).max(100).optional().describe('Only usage billed to this account (personal or an organization)'),
});

/** GET /organizations/{id}/usages. */
export const organizationUsageQuery = baseUsageQuery.extend({
  user_id: safeString().min(1).max(100).optional().describe('Only this member’s usage (needs usage:read-all unless it is you)'),
});

/** GET /organizations/{id}/members/{memberId}/usages. */
export const memberUsageQuery = baseUsageQuery;

export type UsageQuery = z.infer<typeof baseUsageQuery> & { account_id?: string; user_id?: string };

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.createdAt.getTime()}:${c.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(s: string): Cursor {
  // Decoded text is client input too: an id PostgreSQL can hold, a time Prisma can write.
  const m = /^(\d{1,15}):([^\u0000]{1,150})$/.exec(Buffer.from(s, 'base64url').toString('utf8'));
  const createdAt = m ? new Date(Number(m[1])) : null;
  if (!m || !createdAt || !isRepresentableInstant(createdAt)) throw new AppError('bad_request', 'cursor: not a cursor returned by this endpoint');
  return { createdAt, id: m[2] };
}

export function assertRange(from: Date | undefined, to: Date | undefined): void {
  if (from && to && from.getTime() >= to.getTime()) throw new AppError('bad_request', 'from must be before to');
}
