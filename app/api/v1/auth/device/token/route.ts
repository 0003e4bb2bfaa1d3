import { DEVICE_POLL_ERRORS, pollDeviceAuthorization, pollDeviceAuthorizationInput } from '@/server/auth/poll-device-authorization';
import { apiRoute, json, parseBody } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

/** Public: the device code is the credential. Errors carry string codes (authorization_pending, …). */
export const POST = apiRoute(
  async ({ request, requestId }) => {
    const { device_code } = await parseBody(request, pollDeviceAuthorizationInput);
    const result = await pollDeviceAuthorization({ deviceCode: device_code });
    if (result.ok) return { token: result.token, token_type: result.token_type, user: result.user };
    const e = DEVICE_POLL_ERRORS[result.error];
    const headers: Record<string, string> = result.error === 'slow_down' && result.interval ? { 'retry-after': String(result.interval) } : {};
    return json(
      { error: { code: result.error, message: e.message, metadata: { error_type: result.error, request_id: requestId, ...(result.interval ? { interval: result.interval } : {}) } } },
      e.status,
      headers,
    );
  },
  { public: true },
);
