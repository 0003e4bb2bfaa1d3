import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { acceptTermsInput } from './accept-terms';
import { setActiveAccountInput } from './set-active-account';
import { userSettingsSchema } from './get-user-profile';
import { updateUserProfileInput } from './update-user-profile';

export const profileSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    active_account_id: z.string().describe('The personal account id or an organization id'),
    personal_account_id: z.string(),
    image: z.string().nullable(),
    email_verified: z.boolean(),
    terms_version: z.string().nullable(),
    terms_accepted_at: z.string().nullable(),
    terms_current_version: z.string(),
    requires_terms_acceptance: z.boolean(),
    organizations: z.array(z.object({ id: z.string(), name: z.string(), slug: z.string(), role: z.enum(['owner', 'admin', 'billing', 'member']) })),
    settings: userSettingsSchema.describe("Your personal account's settings"),
    created_at: z.string(),
  })
  .meta({ id: 'UserProfile' });

export const remoteConfigSchema = z
  .object({
    account_id: z.string(),
    config: z.record(z.string(), z.unknown()).describe('Code defaults ← GLOBAL ← organization ← user; objects merge key by key, other values replace'),
    sources: z.record(z.string(), z.enum(['default', 'global', 'organization', 'user'])).describe('Which layer set each top-level key'),
  })
  .meta({ id: 'RemoteConfig' });

const tags = ['Users'];
// Every /users route refuses an API key created for an organization (403, metadata.organization_id): it acts
// for that organization only (server/http/authorize.ts).

defineEndpoint({ method: 'get', path: '/users/me', summary: 'Your profile', tags, response: profileSchema });
defineEndpoint({
  method: 'patch',
  path: '/users/me',
  summary: 'Update your profile (name, image) and personal settings',
  description: 'Only name, image and settings (`low_balance_usd`: the balance.low alert of your personal account); any other field (email, roles, balances…) is a 400.',
  tags,
  body: updateUserProfileInput,
  response: profileSchema,
});
defineEndpoint({
  method: 'delete',
  path: '/users/me',
  summary: 'Delete your user',
  description:
    'Removes the user with their memberships, API keys and account auth tokens (all refused from the next request). 409 while you are the only owner ' +
    'of an organization (metadata.organizations lists them): transfer ownership or delete it first. The personal billing account stays for accounting; a remaining balance is forfeited.',
  tags,
  response: z.object({ deleted: z.literal(true), id: z.string(), revoked_api_keys: z.number().int(), revoked_auth_tokens: z.number().int(), left_organizations: z.number().int() }),
  errors: [409],
});
defineEndpoint({
  method: 'post',
  path: '/users/me/accept-terms',
  summary: 'Accept the terms of service',
  description: 'version must be the current one (users/me → terms_current_version); another is a 400 naming the current version.',
  tags,
  body: acceptTermsInput,
  response: profileSchema,
});
defineEndpoint({ method: 'get', path: '/users/me/remote-config', summary: 'Remote configuration for your active account', tags, response: remoteConfigSchema });
defineEndpoint({
  method: 'put',
  path: '/users/active-account',
  summary: 'Switch your active account (personal or an organization you belong to)',
  description: 'Account auth tokens bill to the active account. 403 for an account you do not belong to.',
  tags,
  body: setActiveAccountInput,
  response: profileSchema,
  errors: [403],
});
