// The wrapper of every /api/v1/admin/ route: apiRoute's authentication (API keys and auth tokens, as the
// rest of the REST API), then the operator check (server/auth/operator.ts) before anything else is read,
// so everyone else gets the same 403 whatever the route, body or id.
import { requireOperatorOrThrow } from '@/server/auth/operator';
import { AppError } from '@/server/errors';
import { apiRoute, type ApiContext } from './api-route';

export function adminRoute<P = Record<string, string>>(handler: (ctx: ApiContext<P>) => Promise<unknown | Response>, options: { status?: number } = {}) {
  return apiRoute<P>(async (ctx) => {
    await requireOperatorOrThrow(ctx.principal);
    return handler(ctx);
  }, options);
}

/**
 * A model id from an admin path: `acme%2Ffast` (one segment, as documented) or `acme/fast` (two). Next hands
 * segments decoded; one still holding `%` is decoded here (ids never contain `%`).
 */
export function entryIdFromPath(segments: string | string[]): string {
  const joined = Array.isArray(segments) ? segments.join('/') : segments;
  if (!joined.includes('%')) return joined;
  try {
    return decodeURIComponent(joined);
  } catch {
    throw new AppError('bad_request', `Malformed id in the path: ${joined}`);
  }
}
