import { consumeQuota, clientIp } from '@/server/auth/sign-in-throttle';
import { startDeviceAuthorization, startDeviceAuthorizationInput } from '@/server/auth/start-device-authorization';
import { apiRoute, parseWith } from '@/server/http/api-route';
import { readDeviceFlowFields } from '@/server/http/device-flow-http';
import { publicOrigin } from '@/server/http/public-origin';

export const dynamic = 'force-dynamic';

/**
 * Public: the client has no credential yet. 60 codes per address per hour. JSON, or a form-encoded body as
 * OAuth device-flow clients send (RFC 8628 §3.1: client_id, scope; client_id is shown as the client's name
 * when client_name is absent).
 */
export const POST = apiRoute(
  async ({ request }) => {
    const { fields } = await readDeviceFlowFields(request);
    const input = parseWith(startDeviceAuthorizationInput, { ...fields, client_name: fields.client_name ?? fields.client_id });
    await consumeQuota({ key: `device-code:${clientIp(request.headers)}`, limit: 60, windowMs: 3600_000, what: 'device codes' });
    return startDeviceAuthorization({ input, origin: publicOrigin(request.headers) });
  },
  { public: true },
);
