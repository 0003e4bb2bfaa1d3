import { z } from 'zod';
import { apiKeySchema } from '@/server/api-keys/api-keys.openapi';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { remoteConfigSchema } from '@/server/users/users.openapi';
import { changeMemberRoleInput } from './change-member-role';
import { createOrganizationInput } from './create-organization';
import { deleteOrganizationQuery } from './delete-organization';
import { roleSchema } from './member-dto';
import { setMemberLimitInput } from './member-limit';
import { organizationSettingsSchema } from './organization-dto';
import { PERMISSIONS } from './permissions';
import { removeMembersInput } from './remove-members';
import { updateOrganizationInput } from './update-organization';

const id = z.object({ id: z.string().describe('Organization id') });
const orgTags = ['Organizations'];
const memberTags = ['Members'];

const organizationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    settings: organizationSettingsSchema,
    role: roleSchema.describe("The caller's role"),
    member_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Organization' });

export const memberSchema = z
  .object({
    id: z.string().describe('The member id used in paths: the member’s user id'),
    user_id: z.string(),
    email: z.string(),
    name: z.string(),
    image: z.string().nullable(),
    role: roleSchema,
    joined_at: z.string(),
  })
  .meta({ id: 'Member' });

defineEndpoint({ method: 'post', path: '/organizations', summary: 'Create an organization (you become its owner)', tags: orgTags, body: createOrganizationInput, status: 201, response: organizationSchema, errors: [409] });
defineEndpoint({ method: 'get', path: '/organizations/{id}', summary: 'Organization details', tags: orgTags, params: id, response: organizationSchema, errors: [404] });
defineEndpoint({
  method: 'put',
  path: '/organizations/{id}',
  summary: 'Update name, slug or settings (owner, admin)',
  description: 'Settings merge key by key; a null value removes a setting.',
  tags: orgTags,
  params: id,
  body: updateOrganizationInput,
  response: organizationSchema,
  errors: [403, 404, 409],
});
defineEndpoint({
  method: 'delete',
  path: '/organizations/{id}',
  summary: 'Delete an organization (owner)',
  description:
    '409 while a subscription is live (cancel the plan first), while generations are in flight (free models included; `metadata.in_flight` counts them), or while credit remains unless force=true (the balance is forfeited). ' +
    'Every API key of the organization is revoked, members whose active account it was go back to their personal account, and memberships and invites are removed. ' +
    'The billing account with its ledger, payments and usage records is kept for accounting.',
  tags: orgTags,
  params: id,
  query: deleteOrganizationQuery,
  response: z.object({ deleted: z.literal(true), id: z.string(), revoked_api_keys: z.number().int(), removed_members: z.number().int(), forfeited_balance: z.number() }),
  errors: [403, 404, 409],
});
defineEndpoint({ method: 'get', path: '/organizations/{id}/remote-config', summary: 'Remote configuration of the organization (defaults ← GLOBAL ← organization)', tags: orgTags, params: id, response: remoteConfigSchema, errors: [404] });
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/api-keys',
  summary: 'API keys billed to the organization',
  description: 'Owners and admins see every key; billing managers and members see their own.',
  tags: orgTags,
  params: id,
  response: z.object({ data: z.array(apiKeySchema) }),
  errors: [404],
});

defineEndpoint({ method: 'get', path: '/organizations/{id}/members', summary: 'List members', tags: memberTags, params: id, response: z.object({ data: z.array(memberSchema) }), errors: [404] });
defineEndpoint({
  method: 'delete',
  path: '/organizations/{id}/members',
  summary: 'Remove members (or leave: remove yourself)',
  description:
    'All or nothing. Removing others needs owner or admin; removing an owner needs owner; the last owner cannot be removed (409). ' +
    "Each removed member's API keys on this organization are revoked (counted in the response); if it was their active account they are switched back to their personal account.",
  tags: memberTags,
  params: id,
  body: removeMembersInput,
  response: z.object({
    removed: z.array(z.object({ user_id: z.string(), email: z.string(), revoked_api_keys: z.number().int() })),
    revoked_api_keys: z.number().int(),
  }),
  errors: [403, 404, 409],
});
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/members/available-roles',
  summary: 'Roles, what each may do, and which you may assign',
  tags: memberTags,
  params: id,
  response: z.object({
    data: z.array(z.object({ role: roleSchema, description: z.string(), permissions: z.array(z.enum(Object.keys(PERMISSIONS) as [string, ...string[]])), assignable: z.boolean() })),
  }),
  errors: [404],
});
defineEndpoint({
  method: 'put',
  path: '/organizations/{id}/members/{memberId}/role',
  summary: "Change a member's role (owner, admin)",
  description: 'Only owners grant or revoke the owner role (403); the last owner cannot be demoted (409).',
  tags: memberTags,
  params: z.object({ id: z.string(), memberId: z.string().describe("The member's user id") }),
  body: changeMemberRoleInput,
  response: memberSchema,
  errors: [403, 404, 409],
});

const memberLimitSchema = z
  .object({
    member_id: z.string().describe("The member's user id"),
    amount_usd: z.number().nullable().describe('USD per window; null = no limit'),
    reset: z.enum(['daily', 'weekly', 'monthly']).nullable().describe('When the window restarts (UTC); null = never'),
    usage_usd: z.number().describe('USD spent in the current window (with a spend limit, plus what requests in flight hold)'),
    remaining_usd: z.number().nullable().describe('amount_usd − usage_usd, at least 0; null without a limit'),
    window_started_at: z.string().nullable().describe('Start of the current window; null when nothing was spent in it yet'),
  })
  .meta({ id: 'MemberLimit' });
const memberParams = z.object({ id: z.string(), memberId: z.string().describe("The member's user id") });
defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/members/{memberId}/limit',
  summary: "A member's spend limit and spend in the current window",
  description: 'Owners, admins and billing members see any member’s; members their own (403 for others).',
  tags: memberTags,
  params: memberParams,
  response: memberLimitSchema,
  errors: [403, 404],
});
defineEndpoint({
  method: 'put',
  path: '/organizations/{id}/members/{memberId}/limit',
  summary: "Set or remove a member's spend limit (owner, admin)",
  description:
    "Caps what the member's keys and tokens acting for the organization spend per window (402 past it). Only owners set an owner's limit. " +
    'The spend of the current window is kept. New members get settings.default_member_limit_usd (and _reset) when they join.',
  tags: memberTags,
  params: memberParams,
  body: setMemberLimitInput,
  response: memberLimitSchema,
  errors: [403, 404],
});
