import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { auditActionsMarkdown } from './audit-actions';
import { auditLogQuery, instanceAuditLogQuery } from './list-audit-log';

const tags = ['Audit log'];

const auditEntrySchema = z
  .object({
    id: z.string(),
    created_at: z.string().describe('When the change was committed (the transaction’s start)'),
    account_id: z.string().nullable().describe('The organization’s account, or the user’s personal account; null for a change to the instance itself (an operator’s catalog write: provider.*, model.*, catalog.import)'),
    action: z.string().describe('`<object>.<verb>`, e.g. api_key.create (see the list in the description)'),
    actor: z.object({
      kind: z.enum(['user', 'api_key', 'auth_token', 'operator', 'system', 'anonymous']).describe('user: a console session; api_key / auth_token: the REST credential; operator: the CLI; system: providers’ webhooks and automatic work'),
      user_id: z.string().nullable().describe('The acting user (null for the system and the CLI)'),
      label: z.string().describe('The user’s email, an API key’s hint, or the CLI’s OS account, as they were then'),
      via: z.enum(['rest', 'console', 'cli', 'system']),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
    }),
    target: z.object({ type: z.string().describe('api_key, member, invite, organization, payment, subscription, auth_token…'), id: z.string().nullable() }),
    before: z.unknown().describe('The object before the change (API shapes; never a secret, hash or encrypted value); null for a creation'),
    after: z.unknown().describe('The object after the change; null for a deletion'),
  })
  .meta({ id: 'AuditEntry' });

const page = z.object({ data: z.array(auditEntrySchema), next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last') });

const description =
  'Append-only: entries are written in the same transaction as the change they describe and are never updated. Newest first ' +
  '(created_at, then id), `limit` entries a page (max 200) with an opaque `next_cursor`. Filters combine with AND; `from` is inclusive, `to` ' +
  'exclusive. With `format=csv` or `Accept: text/csv` the page comes as CSV (before/after as JSON text, cells that a spreadsheet would read ' +
  'as a formula prefixed with an apostrophe) and the next cursor in the `X-Next-Cursor` and `Link` headers.\n\nActions:\n' +
  auditActionsMarkdown();

const csv = { 'text/csv': 'One line per entry: created_at, id, action, actor_kind, actor_user_id, actor_label, via, ip, user_agent, target_type, target_id, before, after' };

defineEndpoint({
  method: 'get',
  path: '/organizations/{id}/audit-log',
  summary: "The organization's audit log (owners and admins)",
  description: `Every change to the organization's keys, members, roles, invites, settings, payments and plan, by REST, console or CLI. Other members get 403.\n\n${description}`,
  tags,
  params: z.object({ id: z.string().describe('Organization id') }),
  query: auditLogQuery,
  response: page,
  textAlternatives: csv,
  errors: [403, 404],
});

defineEndpoint({
  method: 'get',
  path: '/users/{id}/audit-log',
  summary: "Your personal account's audit log",
  description: `Changes to your personal account: its keys, auth tokens, payments, auto top-up, promotions and profile. \`id\` is \`me\` or your user id.\n\n${description}`,
  tags,
  params: z.object({ id: z.string().describe('`me` or your user id') }),
  query: auditLogQuery,
  response: page,
  textAlternatives: csv,
  errors: [403, 404],
});

defineEndpoint({
  method: 'get',
  path: '/admin/audit-log',
  summary: 'Every account’s audit log (operators)',
  description:
    'Only operators (ADMIN_EMAILS, or `npm run cli -- user:admin --email E`) with a personal API key or an auth token; everyone else gets 403. ' +
    `The audit entries of every account (personal and organizations), or of one with \`account_id\`; JSON only.\n\n${description}`,
  tags: ['Admin: console'],
  query: instanceAuditLogQuery,
  response: page,
  errors: [403],
});
