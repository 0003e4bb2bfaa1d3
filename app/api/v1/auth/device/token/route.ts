import { pollDeviceAuthorizationInput } from '@/server/auth/poll-device-authorization';
import { apiRoute } from '@/server/http/api-route';
import { deviceTokenReply } from '@/server/http/device-flow-http';

export const dynamic = 'force-dynamic';

/**
 * Public: the device code is the credential. Speaks OAuth 2.0 (RFC 8628: form-encoded, grant_type, 400
 * {"error": "authorization_pending"}) or our JSON dialect (string error.code, 428/429/…), per request.
 */
export const POST = apiRoute(async ({ request, requestId }) => deviceTokenReply(request, requestId, pollDeviceAuthorizationInput), { public: true });
