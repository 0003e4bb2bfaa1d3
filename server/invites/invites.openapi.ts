import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { memberSchema } from '@/server/organizations/organizations.openapi';
import { roleSchema } from '@/server/organizations/member-dto';
import { acceptInviteInput } from './accept-invite';
import { createInvitesInput } from './create-invites';

const tags = ['Invites'];

const inviteSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: roleSchema,
    status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
    invited_by: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
    expires_at: z.string().describe('7 days after sending'),
    created_at: z.string(),
  })
  .meta({ id: 'Invite' });

defineEndpoint({ method: 'get', path: '/organizations/{id}/invites', summary: 'Pending invites (owner, admin, billing)', tags, params: z.object({ id: z.string() }), response: z.object({ data: z.array(inviteSchema) }), errors: [403, 404] });
defineEndpoint({
  method: 'post',
  path: '/organizations/{id}/invites',
  summary: 'Invite people by email (owner, admin)',
  description:
    'One result per email: `invited` (with the link, also mailed when SMTP is configured) or `already_member`. Inviting an email with a pending invite replaces it. ' +
    'Admins may invite admins, billing managers and members; only owners invite owners (403). Seats are enforced when an invite is accepted.',
  tags,
  params: z.object({ id: z.string() }),
  body: createInvitesInput,
  response: z.object({
    data: z.array(
      z.object({
        email: z.string(),
        status: z.enum(['invited', 'already_member']),
        invite: inviteSchema.optional(),
        link: z.string().optional().describe('<origin>/invite/<token>: works once, until the invite expires'),
        emailed: z.boolean().optional(),
        email_error: z.string().optional(),
      }),
    ),
    invited: z.number().int(),
    mail_configured: z.boolean(),
  }),
  errors: [403, 404],
});
defineEndpoint({ method: 'get', path: '/organizations/{id}/invites/count', summary: 'Number of pending invites', tags, params: z.object({ id: z.string() }), response: z.object({ pending: z.number().int() }), errors: [403, 404] });
defineEndpoint({
  method: 'delete',
  path: '/organizations/{id}/invites/{inviteId}',
  summary: 'Revoke an invite (owner, admin)',
  tags,
  params: z.object({ id: z.string(), inviteId: z.string() }),
  response: z.object({ deleted: z.literal(true), invite: inviteSchema }),
  errors: [403, 404, 409],
});
defineEndpoint({
  method: 'post',
  path: '/invites/accept',
  summary: 'Accept an invite (as the invited user)',
  description:
    "Your email must be the invited one (403 otherwise). 410 when expired, 404 when revoked or unknown, 409 when already used, when you are already a member, or when the organization has no free seat (the message names the plan's limit).",
  tags,
  body: acceptInviteInput,
  response: z.object({ organization: z.object({ id: z.string(), name: z.string(), slug: z.string() }), member: memberSchema }),
  errors: [403, 404, 409, 410],
});
