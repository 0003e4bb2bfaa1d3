import { z } from 'zod';
import { defineEndpoint, errorBodySchema } from '@/server/http/openapi/registry';
import { clientKindSchema } from './auth-tokens';
import { DEVICE_CODE_GRANT_TYPE } from './poll-device-authorization';
import { signUpInput } from './sign-up';
import { startDeviceAuthorizationInput } from './start-device-authorization';

export const userSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string(), active_account_id: z.string(), personal_account_id: z.string(), created_at: z.string() })
  .meta({ id: 'User' });

const authTokenSchema = z
  .object({
    id: z.string(),
    device_name: z.string(),
    client_kind: clientKindSchema,
    hint: z.string().describe('e.g. sb-at-v1-AbC…x9Z9; the token itself is never shown again'),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    expires_at: z.string().nullable().describe('null: valid until revoked'),
  })
  .meta({ id: 'AuthToken' });

defineEndpoint({
  method: 'post',
  path: '/auth/sign-up',
  summary: 'Create a user with a personal account (email + password)',
  description: 'Public. 20 sign-ups per client address per hour (429). The browser then signs in through next-auth (/api/auth).',
  tags: ['Auth'],
  auth: false,
  body: signUpInput,
  status: 201,
  response: z.object({ user: userSchema }),
  errors: [409, 429],
});

defineEndpoint({
  method: 'post',
  path: '/auth/device/code',
  summary: 'Start the device flow: get a device code to poll with and a user code to show',
  description:
    'Public; the device authorization endpoint of RFC 8628. Show user_code and send the user to verification_uri (or verification_uri_complete); ' +
    'then poll /auth/device/token every `interval` seconds. Codes live 15 minutes. JSON or form-encoded (OAuth clients send client_id and scope: ' +
    'client_id is shown to the user as the client name when client_name is absent; scope is ignored).',
  tags: ['Auth'],
  auth: false,
  body: startDeviceAuthorizationInput.extend({ client_id: z.string().optional().describe('OAuth clients: shown as the client name if client_name is absent'), scope: z.string().optional().describe('Ignored') }),
  bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
  response: z.object({
    device_code: z.string().describe('Secret: keep it on the device'),
    user_code: z.string().describe('e.g. WDJB-MJHT'),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number().int(),
    interval: z.number().int(),
  }),
  errors: [429],
});

defineEndpoint({
  method: 'post',
  path: '/auth/device/token',
  summary: 'Poll the device flow (RFC 8628 token endpoint); returns an account auth token once the user approved',
  description:
    'Public. Two dialects, chosen by the request. **OAuth 2.0** (form-encoded, or any body with `grant_type`): ' +
    '`grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=…&client_id=…`; every refusal is a 400 with RFC 6749 §5.2\'s ' +
    '`{"error", "error_description"}`: authorization_pending (keep polling), slow_down (`interval` gives the new interval, 5 s longer), ' +
    'access_denied, expired_token, invalid_grant (unknown or already used device code), unsupported_grant_type, invalid_request. ' +
    '**JSON** `{"device_code"}` without grant_type (first-party clients): errors in the spec\'s body with a string error.code: ' +
    '428 authorization_pending, 429 slow_down (Retry-After and metadata.interval give the new interval), 403 access_denied, ' +
    '410 expired_token, 409 device_code_used (a device code yields one token, once), 400 invalid_grant. ' +
    'Success (both): `access_token` and `token` (the same sb-at-v1-… token; send it as Authorization: Bearer), `token_type` "Bearer", `user`. Tokens do not expire.',
  tags: ['Auth'],
  auth: false,
  body: z.object({
    grant_type: z.literal(DEVICE_CODE_GRANT_TYPE).optional().describe('OAuth clients; selects the OAuth dialect'),
    device_code: z.string().min(1).max(200),
    client_id: z.string().optional().describe('OAuth clients; not checked (public clients)'),
  }),
  bodyContentTypes: ['application/x-www-form-urlencoded', 'application/json'],
  response: z.object({
    access_token: z.string().describe('sb-at-v1-…: send as Authorization: Bearer'),
    token: z.string().describe('The same token as access_token (the field first-party clients read)'),
    token_type: z.literal('Bearer'),
    user: userSchema,
  }),
  errors: [403, 409, 410, 428, 429],
  errorBodies: {
    400: {
      description: 'OAuth dialect: every refusal (RFC 6749 §5.2). JSON dialect: invalid_grant or a malformed body, in the Error shape',
      body: z.union([
        errorBodySchema,
        z
          .object({
            error: z.enum(['authorization_pending', 'slow_down', 'access_denied', 'expired_token', 'invalid_grant', 'unsupported_grant_type', 'invalid_request']),
            error_description: z.string(),
            interval: z.number().int().optional().describe('With slow_down: the interval to wait from now on, in seconds'),
          })
          .meta({ id: 'OAuthError' }),
      ]),
    },
  },
});

defineEndpoint({ method: 'get', path: '/auth/tokens', summary: 'List your account auth tokens (signed-in devices)', tags: ['Auth'], response: z.object({ data: z.array(authTokenSchema) }) });

defineEndpoint({
  method: 'delete',
  path: '/auth/tokens/{id}',
  summary: 'Revoke an account auth token (refused from the very next request)',
  tags: ['Auth'],
  params: z.object({ id: z.string() }),
  response: z.object({ deleted: z.literal(true), id: z.string() }),
  errors: [404],
});
