// The audit trail through HTTP: a scripted session over REST (organization, invite, acceptance, role, settings,
// keys, removal) shows up step by step with who, how, from where and before/after; a console (tRPC) change and a
// CLI command are recorded with their own `via`; filters, cursor pages, CSV, who may read it, and the table's
// refusal of UPDATE.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientOf } from '@/server/audit/audit-actors';
import { recordAudit } from '@/server/audit/record-audit';
import { decideDeviceAuthorization } from '@/server/auth/decide-device-authorization';
import { runCommand } from '@/server/cli/commands';
import { db } from '@/server/db';
import { handleCliRequest } from '@/server/http/internal-cli';
import { seedPlans } from '@/server/seed';
import { appRouter } from '@/server/trpc/root';
import { jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

/** RFC 4180: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describeEachDatabase('Audit log', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
    await seedPlans();
  });
  afterAll(() => api?.close());

  const from = (ip: string, ua: string) => ({ 'x-forwarded-for': ip, 'user-agent': ua });
  const log = (orgId: string, token: string, query = '') => call('GET', `/organizations/${orgId}/audit-log${query}`, token);

  it('records a scripted REST session step by step: who, via, from where, before and after', async () => {
    const owner = await testUser('owner');
    const invitee = await testUser('invitee');
    const ownerFrom = from('203.0.113.7', 'owner-script/1.0');
    const inviteeFrom = from('198.51.100.23', 'invitee-browser/2.0');

    const org = await call('POST', '/organizations', owner.token, { name: 'Audited' }, ownerFrom);
    expect(org.status).toBe(201);
    const orgId = org.body.id;
    const invited = await call('POST', `/organizations/${orgId}/invites`, owner.token, { emails: [invitee.email], role: 'member' }, ownerFrom);
    expect(invited.status).toBe(200);
    const invite = invited.body.data[0];
    const accepted = await call('POST', '/invites/accept', invitee.token, { token: invite.link.split('/invite/')[1] }, inviteeFrom);
    expect(accepted.status).toBe(200);
    expect((await call('PUT', `/organizations/${orgId}/members/${invitee.id}/role`, owner.token, { role: 'admin' }, ownerFrom)).status).toBe(200);
    expect((await call('PUT', `/organizations/${orgId}`, owner.token, { settings: { allowed_models: ['switchboard/echo'] } }, ownerFrom)).status).toBe(200);
    // A key of the organization, made by the owner's token, then deleted by an API key (the credential kind differs).
    const made = await call('POST', '/api-keys', owner.token, { name: 'CI key', account_id: orgId, credit_limit: 5 }, ownerFrom);
    expect(made.status).toBe(201);
    const deleter = await call('POST', '/api-keys', owner.token, { name: 'Deleter' }, ownerFrom);
    expect((await call('DELETE', `/api-keys/${made.body.data.id}`, deleter.body.key, undefined, ownerFrom)).status).toBe(200);
    expect((await call('DELETE', `/organizations/${orgId}/members`, owner.token, { member_ids: [invitee.id] }, ownerFrom)).status).toBe(200);
    // Refused changes leave nothing behind: the entry is written in the change's transaction.
    expect((await call('PUT', `/organizations/${orgId}/members/${owner.id}/role`, owner.token, { role: 'admin' }, ownerFrom)).status).toBe(409);

    const res = await log(orgId, owner.token, '?limit=200');
    expect(res.status).toBe(200);
    const entries = [...res.body.data].reverse();
    expect(entries.map((e: any) => e.action)).toEqual([
      'organization.create', 'invite.create', 'invite.accept', 'member.role_change', 'organization.update', 'api_key.create', 'api_key.delete', 'member.remove',
    ]);
    const byOwnerToken = { kind: 'auth_token', user_id: owner.id, label: owner.email, via: 'rest', ip: '203.0.113.7', user_agent: 'owner-script/1.0' };
    const [created, inviteCreated, inviteAccepted, roleChanged, updated, keyCreated, keyDeleted, removed] = entries;
    expect(created).toMatchObject({ account_id: orgId, actor: byOwnerToken, target: { type: 'organization', id: orgId }, before: null, after: { name: 'Audited', slug: org.body.slug, settings: {}, owner_user_id: owner.id } });
    expect(inviteCreated).toMatchObject({ actor: byOwnerToken, target: { type: 'invite', id: invite.invite.id }, before: null, after: { email: invitee.email, role: 'member', status: 'pending' } });
    expect(inviteAccepted).toMatchObject({
      actor: { kind: 'auth_token', user_id: invitee.id, label: invitee.email, via: 'rest', ip: '198.51.100.23', user_agent: 'invitee-browser/2.0' },
      target: { type: 'invite', id: invite.invite.id },
      before: { email: invitee.email, role: 'member', status: 'pending' },
      after: { status: 'accepted', member: { user_id: invitee.id, role: 'member' } },
    });
    expect(roleChanged).toMatchObject({ actor: byOwnerToken, target: { type: 'member', id: invitee.id }, before: { role: 'member', email: invitee.email }, after: { role: 'admin' } });
    expect(updated).toMatchObject({ actor: byOwnerToken, before: { settings: {} }, after: { name: 'Audited', settings: { allowed_models: ['switchboard/echo'] } } });
    expect(keyCreated).toMatchObject({ actor: byOwnerToken, target: { type: 'api_key', id: made.body.data.id }, after: { name: 'CI key', credit_limit: 5, hint: made.body.data.hint, account_id: orgId } });
    // The API key is named by its hint, never by its secret.
    expect(keyDeleted).toMatchObject({
      actor: { kind: 'api_key', user_id: owner.id, label: deleter.body.data.hint, via: 'rest', ip: '203.0.113.7' },
      target: { type: 'api_key', id: made.body.data.id },
      before: { name: 'CI key', hint: made.body.data.hint },
      after: null,
    });
    expect(removed).toMatchObject({ actor: byOwnerToken, target: { type: 'member', id: invitee.id }, before: { email: invitee.email, role: 'admin' }, after: { revoked_api_keys: 0 } });
    // Never a secret, hash or token: not the key, not the invite link, not the credentials used.
    const text = JSON.stringify(res.body);
    for (const secret of [made.body.key, deleter.body.key, invite.link.split('/invite/')[1], owner.token, invitee.token]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/keyHash|tokenHash|key_hash/);

    // The user's own log: the personal key, with the same actor.
    const personal = await call('GET', '/users/me/audit-log?action=api_key.create', owner.token);
    expect(personal.status).toBe(200);
    expect(personal.body.data).toEqual([expect.objectContaining({ account_id: owner.personalAccountId, target: { type: 'api_key', id: deleter.body.data.id }, actor: expect.objectContaining(byOwnerToken) })]);
  });

  it('records a console (tRPC) change via console, with the browser’s address and user agent', async () => {
    const w = await organizationWorld('Console');
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: new Request('http://localhost/api/trpc/organization.changeRole', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from('192.0.2.44', 'Mozilla/5.0 console') },
        body: JSON.stringify({ member_id: w.member.id, role: 'billing' }),
      }),
      router: appRouter,
      // As createTrpcContext does, with the session's principal given (no next-auth cookie here).
      createContext: ({ req }) => ({ principal: { kind: 'session' as const, userId: w.admin.id, accountId: w.organizationId }, client: clientOf(req.headers) }),
    });
    expect(res.status).toBe(200);
    const [entry] = (await log(w.organizationId, w.owner.token, '?action=member.role_change')).body.data;
    expect(entry).toMatchObject({
      actor: { kind: 'user', user_id: w.admin.id, label: w.admin.email, via: 'console', ip: '192.0.2.44', user_agent: 'Mozilla/5.0 console' },
      target: { type: 'member', id: w.member.id },
      before: { role: 'member' },
      after: { role: 'billing' },
    });
  });

  it('records CLI commands via cli as the operator, in the CLI process and through the server’s /internal/cli endpoint', async () => {
    const w = await organizationWorld('Operated');
    const direct = await runCommand('key:create', { email: w.member.email, org: w.organizationId, name: 'From the shell' });
    const server = http.createServer((req, res) => void handleCliRequest(req, res, 'cli-test-token'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const viaServer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/internal/cli`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-switchboard-cli-token': 'cli-test-token' },
        body: JSON.stringify({ command: 'credits:grant', args: { org: w.organizationId, amount: '2.50', note: 'goodwill' }, operator: 'alice' }),
      });
      expect(viaServer.status).toBe(200);
    } finally {
      await new Promise((r) => server.close(r));
    }
    const entries = (await log(w.organizationId, w.owner.token)).body.data;
    const keyEntry = entries.find((e: any) => e.action === 'api_key.create');
    expect(keyEntry).toMatchObject({ actor: { kind: 'operator', user_id: null, via: 'cli', label: expect.stringMatching(/ \(cli\)$/) }, target: { id: direct.data.id }, after: { name: 'From the shell', user_id: w.member.id } });
    const grant = entries.find((e: any) => e.action === 'credits.grant');
    expect(grant).toMatchObject({ actor: { kind: 'operator', via: 'cli', label: 'alice (cli)', ip: '127.0.0.1' }, after: { amount: 2.5, note: 'goodwill', kind: 'adjustment' } });
  });

  it('records tokens from the device flow as the approving user’s (the polling device has no credential), and their revocation', async () => {
    const u = await testUser('device');
    const code = await call('POST', '/auth/device/code', null, { client_name: 'Laptop CLI', client_kind: 'cli' });
    await decideDeviceAuthorization({ userCode: code.body.user_code, userId: u.id, approve: true });
    const issued = await call('POST', '/auth/device/token', null, { device_code: code.body.device_code }, from('198.51.100.77', 'switchboard-cli/0.1'));
    expect(issued.status).toBe(200);
    const tokenId = (await call('GET', '/auth/tokens', issued.body.token)).body.data.find((t: any) => t.device_name === 'Laptop CLI').id;
    expect((await call('DELETE', `/auth/tokens/${tokenId}`, u.token, undefined, from('198.51.100.78', 'other'))).status).toBe(200);

    const entries = (await call('GET', `/users/me/audit-log?target_id=${tokenId}`, u.token)).body.data.reverse();
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'auth_token.create',
        account_id: u.personalAccountId,
        actor: { kind: 'user', user_id: u.id, label: u.email, via: 'rest', ip: '198.51.100.77', user_agent: 'switchboard-cli/0.1' },
        after: expect.objectContaining({ id: tokenId, device_name: 'Laptop CLI', client_kind: 'cli', hint: expect.stringMatching(/^sb-at-v1-/) }),
      }),
      expect.objectContaining({ action: 'auth_token.revoke', actor: expect.objectContaining({ kind: 'auth_token', user_id: u.id, ip: '198.51.100.78' }), before: expect.objectContaining({ id: tokenId }) }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(issued.body.token);
  });

  it('filters by action (exact or prefix), actor, target and time', async () => {
    const w = await organizationWorld('Filtered');
    const k1 = await call('POST', '/api-keys', w.admin.token, { name: 'one', account_id: w.organizationId });
    const k2 = await call('POST', '/api-keys', w.member.token, { name: 'two', account_id: w.organizationId });
    await call('DELETE', `/api-keys/${k1.body.data.id}`, w.admin.token);
    await call('PUT', `/organizations/${w.organizationId}`, w.owner.token, { name: 'Filtered Inc' });
    // "_" in a prefix is a literal, not LIKE's any-character wildcard.
    await recordAudit(null, { accountId: w.organizationId, action: 'apixkey.create', target: { type: 'test' } });
    const actions = async (q: string) => (await log(w.organizationId, w.owner.token, q)).body.data.map((e: any) => e.action);

    expect(await actions('?action=api_key.create')).toEqual(['api_key.create', 'api_key.create']);
    expect(await actions('?action=api_key.')).toEqual(['api_key.delete', 'api_key.create', 'api_key.create']);
    expect(await actions('?action=api_key.*')).toEqual(['api_key.delete', 'api_key.create', 'api_key.create']);
    expect(await actions('?action=api_key')).toEqual([]);
    expect(await actions(`?actor=${w.admin.id}`)).toEqual(['api_key.delete', 'api_key.create']);
    expect(await actions(`?target_type=api_key&target_id=${k2.body.data.id}`)).toEqual(['api_key.create']);
    expect(await actions('?target_type=organization')).toEqual(['organization.update', 'organization.create']);

    const all = (await log(w.organizationId, w.owner.token)).body.data;
    const update = all.find((e: any) => e.action === 'organization.update');
    expect(await actions(`?from=${encodeURIComponent(update.created_at)}&action=organization.`)).toEqual(['organization.update']);
    expect(await actions(`?to=${encodeURIComponent(update.created_at)}&action=organization.`)).toEqual(['organization.create']);
    expect((await log(w.organizationId, w.owner.token, '?action=DROP%20TABLE')).status).toBe(400);
    expect((await log(w.organizationId, w.owner.token, '?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).status).toBe(400);
    expect((await log(w.organizationId, w.owner.token, '?limit=201')).status).toBe(400);
    expect((await log(w.organizationId, w.owner.token, '?cursor=garbage')).status).toBe(400);
  });

  it('pages newest first with an opaque cursor: every entry exactly once, ties on the instant broken by id', async () => {
    const w = await organizationWorld('Paged');
    const prisma = await db();
    // 12 entries in one transaction share their created_at; 9 more in transactions of their own.
    await prisma.$transaction(async (tx) => {
      for (let i = 0; i < 12; i++) await recordAudit(tx, { accountId: w.organizationId, action: 'test.tied', target: { type: 'test', id: String(i) } });
    });
    for (let i = 0; i < 9; i++) await recordAudit(null, { accountId: w.organizationId, action: 'test.single', target: { type: 'test', id: String(i) } });
    const everything = (await log(w.organizationId, w.owner.token, '?action=test.&limit=200')).body.data.map((e: any) => e.id);
    expect(everything).toHaveLength(21);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await log(w.organizationId, w.owner.token, `?action=test.&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: any) => e.id));
      cursor = res.body.next_cursor;
      pages++;
      // An entry written meanwhile is newer than every page already read: it neither shifts nor repeats them.
      if (pages === 2) await recordAudit(null, { accountId: w.organizationId, action: 'test.late', target: { type: 'test' } });
    } while (cursor && pages < 20);
    expect(pages).toBe(6);
    expect(seen).toEqual(everything);
    expect(new Set(seen).size).toBe(21);
  });

  it('answers CSV with format=csv or Accept: text/csv, escaped, formulas neutralized, the next cursor in headers', async () => {
    const w = await organizationWorld('Exported');
    const hostileAgent = '=HYPERLINK("http://evil.example","click"), really';
    await call('POST', '/api-keys', w.admin.token, { name: 'first', account_id: w.organizationId }, from('203.0.113.8', hostileAgent));
    await call('POST', '/api-keys', w.admin.token, { name: '-2+3', account_id: w.organizationId }, from('203.0.113.8', 'plain'));

    const res = await fetch(`${api.origin}/api/v1/organizations/${w.organizationId}/audit-log?format=csv&limit=1&action=api_key.`, { headers: { authorization: `Bearer ${w.owner.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const next = res.headers.get('x-next-cursor');
    expect(next).toEqual(expect.any(String));
    expect(res.headers.get('link')).toContain(`cursor=${next}`);
    const first = parseCsv(await res.text());
    expect(first[0]).toEqual(['created_at', 'id', 'action', 'actor_kind', 'actor_user_id', 'actor_label', 'via', 'ip', 'user_agent', 'target_type', 'target_id', 'before', 'after']);
    expect(first).toHaveLength(2);
    expect(first[1].slice(2, 9)).toEqual(['api_key.create', 'auth_token', w.admin.id, w.admin.email, 'rest', '203.0.113.8', 'plain']);
    expect(JSON.parse(first[1][12])).toMatchObject({ name: '-2+3' });

    const second = await fetch(`${api.origin}/api/v1/organizations/${w.organizationId}/audit-log?limit=1&action=api_key.&cursor=${next}`, { headers: { authorization: `Bearer ${w.owner.token}`, accept: 'text/csv' } });
    expect(second.headers.get('x-next-cursor')).toBeNull();
    const text = await second.text();
    // The hostile user agent: quoted (comma, quotes) and prefixed so no spreadsheet evaluates it.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click""), really"`);
    const rows = parseCsv(text);
    expect(rows[1][8]).toBe(`'${hostileAgent}`);
    expect(JSON.parse(rows[1][12])).toMatchObject({ name: 'first' });
    // JSON stays the default, and format=json wins over the Accept header.
    const json = await fetch(`${api.origin}/api/v1/organizations/${w.organizationId}/audit-log?format=json`, { headers: { authorization: `Bearer ${w.owner.token}`, accept: 'text/csv' } });
    expect(json.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('is for owners and admins: members and billing managers get 403, strangers 404, a user only their own', async () => {
    const w = await organizationWorld('Guarded');
    for (const [who, status] of [[w.owner, 200], [w.admin, 200], [w.billing, 403], [w.member, 403], [w.stranger, 404]] as const) {
      expect((await log(w.organizationId, who.token)).status, who.email).toBe(status);
    }
    const refused = await log(w.organizationId, w.member.token);
    expect(refused.body.error.metadata).toMatchObject({ required_permission: 'audit:read', role: 'member' });
    expect((await call('GET', `/users/${w.member.id}/audit-log`, w.member.token)).status).toBe(200);
    expect((await call('GET', `/users/${w.member.id}/audit-log`, w.owner.token)).status).toBe(404);
    expect((await call('GET', `/organizations/${w.organizationId}/audit-log`, null)).status).toBe(401);
    // An API key of the organization acts for it: not for its creator's personal log.
    const orgKey = await call('POST', '/api-keys', w.admin.token, { name: 'org', account_id: w.organizationId });
    expect((await call('GET', '/users/me/audit-log', orgKey.body.key)).status).toBe(403);
    expect((await log(w.organizationId, orgKey.body.key)).status).toBe(200);
  });

  it('keeps the trail of a deleted user: their organizations see them leave, their personal account keeps the deletion', async () => {
    const w = await organizationWorld('Departed');
    expect((await call('DELETE', '/users/me', w.member.token, undefined, from('203.0.113.99', 'leaving'))).status).toBe(200);
    const [left] = (await log(w.organizationId, w.owner.token, '?action=member.leave')).body.data;
    expect(left).toMatchObject({ actor: { kind: 'auth_token', user_id: w.member.id, label: w.member.email, ip: '203.0.113.99' }, target: { id: w.member.id }, before: { email: w.member.email, role: 'member' } });
    const prisma = await db();
    const deleted = await prisma.auditLogEntry.findFirstOrThrow({ where: { accountId: w.member.personalAccountId, action: 'user.delete' } });
    expect(deleted).toMatchObject({ actorUserId: w.member.id, actorLabel: w.member.email, after: { revoked_auth_tokens: 1 } });
  });

  it('is append-only: the database refuses to change an entry', async () => {
    const w = await organizationWorld('Immutable');
    await call('PUT', `/organizations/${w.organizationId}`, w.owner.token, { name: 'Renamed' });
    const prisma = await db();
    const entry = await prisma.auditLogEntry.findFirstOrThrow({ where: { accountId: w.organizationId, action: 'organization.update' } });
    await expect(prisma.auditLogEntry.update({ where: { id: entry.id }, data: { actorLabel: 'someone else' } })).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`UPDATE "AuditLogEntry" SET "after" = '{}'::jsonb WHERE id = ${entry.id}`).rejects.toThrow(/append-only/);
    expect(await prisma.auditLogEntry.findUniqueOrThrow({ where: { id: entry.id } })).toEqual(entry);
  });
});
