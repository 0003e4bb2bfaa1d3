import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { setOrganizationSsoInput, ssoRoleSchema } from './sso-dto';

const params = z.object({ id: z.string().describe('Organization id') });
const tags = ['Single sign-on'];

const organizationSsoSchema = z
  .object({
    organization_id: z.string(),
    issuer: z.string().describe('The OpenID Connect issuer, as its discovery document names it'),
    client_id: z.string(),
    client_secret_hint: z.string().describe('The first and last characters of the client secret (the secret itself is never returned)'),
    redirect_uri: z.string().describe('Register this redirect URI for the client at the issuer'),
    default_role: ssoRoleSchema,
    domains: z.array(
      z.object({
        domain: z.string(),
        verified: z.boolean().describe('Only verified domains sign people in through this issuer'),
        verified_at: z.string().nullable(),
        verification: z
          .object({ type: z.literal('TXT'), name: z.string().describe('e.g. _switchboard.acme.com'), value: z.string().describe('switchboard-verification=<token>') })
          .describe('The DNS record that proves the organization controls the domain'),
        last_checked_at: z.string().nullable(),
        last_check_error: z.string().nullable().describe('Why the last verification did not succeed'),
      }),
    ),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'OrganizationSso' });

const flow =
  'People whose email is at one of the verified domains choose "Sign in with SSO" on the sign-in page, type their email, sign in at the issuer ' +
  '(authorization code with PKCE, state and nonce) and, on their first sign-in, join the organization with `default_role` (seat limits apply). ' +
  'The issuer must report the email as verified (`email_verified: true`).';

defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/sso',
  summary: "The organization's single sign-on (owner)",
  description: `404 when none is set up. ${flow}`,
  tags,
  params,
  response: organizationSsoSchema,
  errors: [403, 404],
});
defineEndpoint({
  method: 'put',
  path: '/organizations/{id}/sso',
  summary: 'Set up or replace single sign-on (owner)',
  description:
    "The issuer's discovery document (`<issuer>/.well-known/openid-configuration`) must answer and name the same issuer (400 otherwise). " +
    '`client_secret` is stored encrypted and never returned; omit it to keep the stored one. Domains kept from the previous configuration keep their verification; ' +
    'each new domain must be verified: publish its `verification` record (TXT `switchboard-verification=<token>` at `_switchboard.<domain>`), then call POST /organizations/{id}/sso/verify. ' +
    'A domain can be verified by one organization only.',
  tags,
  params,
  body: setOrganizationSsoInput,
  response: organizationSsoSchema,
  errors: [403, 404, 503],
});
defineEndpoint({
  method: 'delete',
  path: '/organizations/{id}/sso',
  summary: 'Remove single sign-on (owner)',
  description: 'The issuer, its secret and every domain (verified ones too) are removed. Members who joined through SSO stay members.',
  tags,
  params,
  response: z.object({ deleted: z.literal(true) }),
  errors: [403, 404],
});
defineEndpoint({
  method: 'post',
  path: '/organizations/{id}/sso/verify',
  summary: "Check the DNS records of the organization's unverified SSO domains (owner)",
  description:
    'Looks up the TXT records at `_switchboard.<domain>` of each unverified domain; a domain whose records include its `switchboard-verification=<token>` becomes verified ' +
    '(unless another organization verified it first). The answer is the configuration, with `last_check_error` on each domain that is still unverified.',
  tags,
  params,
  response: organizationSsoSchema,
  errors: [403, 404],
});
