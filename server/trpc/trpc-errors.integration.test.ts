// What the browser sees when tRPC itself (or our middleware) refuses a call: the formatter's appError speaks
// the REST vocabulary with the real status and message; 500/internal is kept for faults of ours.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it } from 'vitest';
import { appRouter } from './root';

// A signed-in principal that is never looked up: profile.update checks the session, then parses its input.
const signedIn = { kind: 'session' as const, userId: 'user-never-read', accountId: 'account-never-read' };

async function call(path: string, init: RequestInit = {}, principal: typeof signedIn | null = null) {
  const res = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: new Request(`http://localhost/api/trpc/${path}`, init),
    router: appRouter,
    createContext: () => ({ principal }),
  });
  const body = await res.json();
  return { status: res.status, error: body.error ?? body[0]?.error };
}

describe('tRPC errors that do not come from a service', () => {
  it('keep their status and message in appError instead of becoming internal', async () => {
    const signedOut = await call('profile.get');
    expect(signedOut.status).toBe(401);
    expect(signedOut.error.message).toBe('Sign in to continue');
    expect(signedOut.error.data.appError).toMatchObject({ code: 401, message: 'Sign in to continue', metadata: { error_type: 'unauthorized' } });

    const unknown = await call('nope.nope');
    expect(unknown.status).toBe(404);
    expect(unknown.error.data.appError).toMatchObject({ code: 404, metadata: { error_type: 'not_found' } });
    expect(unknown.error.data.appError.message).toMatch(/nope\.nope/);

    const viaGet = await call('apiKeys.create');
    expect(viaGet.status).toBe(405);
    expect(viaGet.error.data.appError).toMatchObject({ code: 405, metadata: { error_type: 'method_not_allowed' } });
    expect(viaGet.error.data.appError.message).not.toBe('Internal server error');

    const malformed = await call('profile.update', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' }, signedIn);
    expect(malformed.status).toBe(400);
    expect(malformed.error.data.appError).toMatchObject({ code: 400, metadata: { error_type: 'bad_request' } });
    expect(malformed.error.data.appError.message).not.toBe('Internal server error');

    for (const e of [signedOut, unknown, viaGet, malformed]) expect(e.error.data.stack).toBeUndefined();
  });
});
