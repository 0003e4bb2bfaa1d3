import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { clientKindSchema } from './auth-tokens';
import { pollDeviceAuthorizationInput } from './poll-device-authorization';
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
  description: 'Public. Show user_code and send the user to verification_uri (or verification_uri_complete); then poll /auth/device/token every `interval` seconds. Codes live 15 minutes.',
  tags: ['Auth'],
  auth: false,
  body: startDeviceAuthorizationInput,
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
  summary: 'Poll the device flow; returns an account auth token once the user approved',
  description:
    'Public. Errors have a string error.code: 428 authorization_pending (keep polling), 429 slow_down (Retry-After and metadata.interval ' +
    'give the new interval), 403 access_denied (the user denied), 410 expired_token (start again), 409 device_code_used (the token was ' +
    'already issued: a device code yields one token, once), 400 invalid_grant (unknown device code).',
  tags: ['Auth'],
  auth: false,
  body: pollDeviceAuthorizationInput,
  response: z.object({ token: z.string().describe('sb-at-v1-…: send as Authorization: Bearer'), token_type: z.literal('Bearer'), user: userSchema }),
  errors: [403, 409, 410, 428, 429],
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
