// The device flow's two HTTP dialects, over one service (server/auth/*-device-authorization.ts):
// - OAuth 2.0 (RFC 8628 §3.4–3.5, RFC 6749 §5.1–5.2): what off-the-shelf device-flow libraries send, a
//   form-encoded body with grant_type=urn:ietf:params:oauth:grant-type:device_code. Every refusal is a 400
//   with {"error": "<code>", "error_description"}; success carries access_token.
// - Our original JSON dialect ({"device_code"} without grant_type), which first-party CLIs and editors
//   already speak: statuses 428/429/403/410/409/400 and the spec's {"error": {code, message, metadata}}.
// The dialect is chosen by the request (form-encoded, or a grant_type field), so neither kind of client
// has to change.
import { z } from 'zod';
import { DEVICE_CODE_GRANT_TYPE, DEVICE_POLL_ERRORS, pollDeviceAuthorization, type PollResult } from '@/server/auth/poll-device-authorization';
import { AppError } from '@/server/errors';
import { jsonDepthExceeds, MAX_JSON_DEPTH, safeString } from '@/server/validation/fields';
import { json, parseWith, readRequestText } from './api-route';

/** RFC 6749 §5.1: token responses must not be cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** The body's fields, from a form-encoded body (what OAuth clients send) or a JSON object. */
export async function readDeviceFlowFields(request: Request): Promise<{ fields: Record<string, unknown>; form: boolean }> {
  const text = await readRequestText(request);
  if (/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) {
    return { fields: Object.fromEntries(new URLSearchParams(text)), form: true };
  }
  let raw: unknown;
  try {
    raw = text.length ? JSON.parse(text) : {};
  } catch {
    throw new AppError('bad_request', 'Malformed JSON in request body (or send application/x-www-form-urlencoded)');
  }
  if (jsonDepthExceeds(raw)) throw new AppError('bad_request', `The request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('bad_request', 'The request body must be a JSON object');
  return { fields: raw as Record<string, unknown>, form: false };
}

const oauthPoll = z.object({ grant_type: z.string().optional(), device_code: safeString().max(200).optional() });

/** POST /api/v1/auth/device/token in whichever dialect the request speaks. */
export async function deviceTokenReply(request: Request, requestId: string, legacyInput: z.ZodType<{ device_code: string }>): Promise<Response> {
  const { fields, form } = await readDeviceFlowFields(request);
  if (form || 'grant_type' in fields) return oauthTokenReply(parseWith(oauthPoll, fields));
  const { device_code } = parseWith(legacyInput, fields);
  const result = await pollDeviceAuthorization({ deviceCode: device_code });
  if (result.ok) return json(successBody(result), 200, NO_STORE);
  const e = DEVICE_POLL_ERRORS[result.error];
  const headers: Record<string, string> = result.error === 'slow_down' && result.interval ? { 'retry-after': String(result.interval) } : {};
  const metadata = { error_type: result.error, request_id: requestId, ...(result.interval ? { interval: result.interval } : {}) };
  return json({ error: { code: result.error, message: e.message, metadata } }, e.status, headers);
}

async function oauthTokenReply(input: z.infer<typeof oauthPoll>): Promise<Response> {
  if (!input.grant_type) return oauthError('invalid_request', 'grant_type is required');
  if (input.grant_type !== DEVICE_CODE_GRANT_TYPE) return oauthError('unsupported_grant_type', `Only ${DEVICE_CODE_GRANT_TYPE} is supported here`);
  if (!input.device_code) return oauthError('invalid_request', 'device_code is required');
  const result = await pollDeviceAuthorization({ deviceCode: input.device_code });
  if (result.ok) return json(successBody(result), 200, NO_STORE);
  // RFC 8628 §3.5 names four codes; a used or unknown device code is RFC 6749's invalid_grant.
  const error = result.error === 'device_code_used' ? 'invalid_grant' : result.error;
  return oauthError(error, DEVICE_POLL_ERRORS[result.error].message, result.interval);
}

function oauthError(error: string, description: string, interval?: number): Response {
  return json({ error, error_description: description, ...(interval ? { interval } : {}) }, 400, NO_STORE);
}

/** Both dialects: OAuth's access_token and token_type, and the `token` and `user` our clients read. */
function successBody(result: Extract<PollResult, { ok: true }>) {
  return { access_token: result.token, token_type: result.token_type, token: result.token, user: result.user };
}
