import { consumeQuota, clientIp } from '@/server/auth/sign-in-throttle';
import { startDeviceAuthorization, startDeviceAuthorizationInput } from '@/server/auth/start-device-authorization';
import { apiRoute, parseBody } from '@/server/http/api-route';
import { publicOrigin } from '@/server/http/public-origin';

export const dynamic = 'force-dynamic';

/** Public: the client has no credential yet. 60 codes per address per hour. */
export const POST = apiRoute(
  async ({ request }) => {
    const input = await parseBody(request, startDeviceAuthorizationInput);
    await consumeQuota({ key: `device-code:${clientIp(request.headers)}`, limit: 60, windowMs: 3600_000, what: 'device codes' });
    return startDeviceAuthorization({ input, origin: publicOrigin(request.headers) });
  },
  { public: true },
);
