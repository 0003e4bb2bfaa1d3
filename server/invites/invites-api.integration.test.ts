import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { previewInvite } from '@/server/invites/accept-invite';
import { seedPlans } from '@/server/seed';
import { addMember, jsonClient, organizationWorld, testUser, uniqueEmail } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { startFakeSmtp } from '@/test/fake-smtp';

describeEachDatabase('REST invites', () => {
  let api: ApiServer;
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    process.env.SMTP_URL = `${smtp.url}?from=${encodeURIComponent('Switchboard <team@switchboard.test>')}`;
    api = await startApiServer();
    process.env.PUBLIC_URL = api.origin; // links name this server (server/http/public-origin.ts)
    resetEnvCache();
    await seedPlans();
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    delete process.env.PUBLIC_URL;
    resetEnvCache();
    await api?.close();
    await smtp?.close();
  });
  const invites = (orgId: string) => `/organizations/${orgId}/invites`;
  const tokenOf = (link: string) => link.split('/invite/')[1];

  it('invites by email: per-email results with links, mailed, deduplicated, members skipped', async () => {
    const w = await organizationWorld('Inviting');
    const a = uniqueEmail('a');
    const res = await call('POST', invites(w.organizationId), w.admin.token, { emails: [a, a.toUpperCase(), w.member.email], role: 'billing' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invited: 1, mail_configured: true });
    expect(res.body.data).toEqual([
      { email: a, status: 'invited', invite: expect.objectContaining({ email: a, role: 'billing', status: 'pending', invited_by: expect.objectContaining({ id: w.admin.id }) }), link: expect.stringMatching(new RegExp(`^${api.origin}/invite/sb-inv-`)), emailed: true },
      { email: w.member.email, status: 'already_member' },
    ]);
    const mail = smtp.messages.find((m) => m.to.some((t) => t.includes(a)));
    expect(mail?.from).toContain('team@switchboard.test');
    expect(mail?.data).toContain('Inviting');
    expect(mail?.data.replace(/=\r\n/g, '')).toContain(tokenOf(res.body.data[0].link).slice(0, 20));

    const list = await call('GET', invites(w.organizationId), w.billing.token);
    expect(list.body.data.map((i: any) => i.email)).toEqual([a]);
    expect((await call('GET', `${invites(w.organizationId)}/count`, w.owner.token)).body).toEqual({ pending: 1 });

    // inviting again replaces the pending invite: the old link stops working
    const again = await call('POST', invites(w.organizationId), w.owner.token, { emails: [a] });
    expect(again.body.data[0].invite.role).toBe('member');
    expect((await call('GET', `${invites(w.organizationId)}/count`, w.owner.token)).body).toEqual({ pending: 1 });
    const invitee = await testUser('a', a);
    expect((await call('POST', '/invites/accept', invitee.token, { token: tokenOf(res.body.data[0].link) })).status).toBe(404);
  });

  it('400s on bad input; admins cannot invite owners', async () => {
    const w = await organizationWorld('Strict');
    const path = invites(w.organizationId);
    for (const body of [{ emails: [] }, { emails: ['not-an-email'] }, { emails: Array.from({ length: 51 }, (_, i) => `x${i}@example.com`) }, { emails: ['a@example.com'], role: 'god' }]) {
      expect((await call('POST', path, w.owner.token, body)).status).toBe(400);
    }
    expect((await call('POST', path, w.admin.token, { emails: [uniqueEmail()], role: 'owner' })).status).toBe(403);
    expect((await call('POST', path, w.owner.token, { emails: [uniqueEmail()], role: 'owner' })).status).toBe(200);
  });

  it('accepting: the invited email only (any case), once; revoked 404, expired 410', async () => {
    const w = await organizationWorld('Accepting'); // 4 members: over the free plan's 3, so give it seats
    const prisma = await db();
    await prisma.subscription.create({ data: { organizationId: w.organizationId, planId: 'teams', status: 'ACTIVE', seats: 20, provider: 'SANDBOX' } });
    const email = uniqueEmail('joiner');
    const invitee = await testUser('joiner', email);
    const sent = await call('POST', invites(w.organizationId), w.owner.token, { emails: [email.toUpperCase()], role: 'admin' });
    const token = tokenOf(sent.body.data[0].link);
    expect(await previewInvite({ token })).toMatchObject({ organization_name: 'Accepting', role: 'admin', status: 'pending', invited_by: 'owner' });

    const wrong = await call('POST', '/invites/accept', w.stranger.token, { token });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toContain(email);
    const ok = await call('POST', '/invites/accept', invitee.token, { token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ organization: { id: w.organizationId, name: 'Accepting' }, member: { id: invitee.id, role: 'admin' } });
    expect((await call('POST', '/invites/accept', invitee.token, { token })).status).toBe(409);
    expect((await previewInvite({ token })).status).toBe('accepted');

    const revokedEmail = uniqueEmail('revoked');
    const r = await call('POST', invites(w.organizationId), w.owner.token, { emails: [revokedEmail] });
    const del = await call('DELETE', `${invites(w.organizationId)}/${r.body.data[0].invite.id}`, w.admin.token);
    expect([del.status, del.body.invite.status]).toEqual([200, 'revoked']);
    expect((await call('DELETE', `${invites(w.organizationId)}/${r.body.data[0].invite.id}`, w.admin.token)).status).toBe(404);
    const revokedUser = await testUser('revoked', revokedEmail);
    expect((await call('POST', '/invites/accept', revokedUser.token, { token: tokenOf(r.body.data[0].link) })).status).toBe(404);

    const lateEmail = uniqueEmail('late');
    const late = await call('POST', invites(w.organizationId), w.owner.token, { emails: [lateEmail] });
    await prisma.invite.update({ where: { id: late.body.data[0].invite.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const lateUser = await testUser('late', lateEmail);
    const expired = await call('POST', '/invites/accept', lateUser.token, { token: tokenOf(late.body.data[0].link) });
    expect(expired.status).toBe(410);
    expect((await call('GET', `${invites(w.organizationId)}/count`, w.owner.token)).body).toEqual({ pending: 0 });
    expect((await call('POST', '/invites/accept', lateUser.token, { token: 'sb-inv-garbage' })).status).toBe(404);
    expect((await call('POST', '/invites/accept', lateUser.token, {})).status).toBe(400);
  });

  it('revoking while the invitee accepts: one of the two wins, never both (a revoke that answers 200 means they are not in)', async () => {
    const w = await organizationWorld('Revoke race');
    const prisma = await db();
    await prisma.subscription.create({ data: { organizationId: w.organizationId, planId: 'teams', status: 'ACTIVE', seats: 50, provider: 'SANDBOX' } });
    for (let i = 0; i < 12; i++) {
      const email = uniqueEmail('racer');
      const invitee = await testUser('racer', email);
      const sent = (await call('POST', invites(w.organizationId), w.owner.token, { emails: [email] })).body.data[0];
      const [accepted, revoked] = await Promise.all([
        call('POST', '/invites/accept', invitee.token, { token: tokenOf(sent.link) }),
        call('DELETE', `${invites(w.organizationId)}/${sent.invite.id}`, w.owner.token),
      ]);
      const member = await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: w.organizationId, userId: invitee.id } } });
      const row = await prisma.invite.findUniqueOrThrow({ where: { id: sent.invite.id } });
      expect([accepted.status, revoked.status].sort(), `round ${i}`).toEqual(accepted.status === 200 ? [200, 409] : [200, 404]);
      expect([row.status, !!member]).toEqual(accepted.status === 200 ? ['ACCEPTED', true] : ['REVOKED', false]);
    }
  });

  it('inviting an email again while its old link is accepted: either the old link is replaced (404) or they joined (already_member), never both', async () => {
    const w = await organizationWorld('Reinvite race');
    const prisma = await db();
    await prisma.subscription.create({ data: { organizationId: w.organizationId, planId: 'teams', status: 'ACTIVE', seats: 50, provider: 'SANDBOX' } });
    for (let i = 0; i < 12; i++) {
      const email = uniqueEmail('reracer');
      const invitee = await testUser('reracer', email);
      const sent = (await call('POST', invites(w.organizationId), w.owner.token, { emails: [email] })).body.data[0];
      const [accepted, again] = await Promise.all([
        call('POST', '/invites/accept', invitee.token, { token: tokenOf(sent.link) }),
        call('POST', invites(w.organizationId), w.owner.token, { emails: [email] }),
      ]);
      expect(again.status, `round ${i}`).toBe(200);
      const row = await prisma.invite.findUniqueOrThrow({ where: { id: sent.invite.id } });
      const pending = await prisma.invite.count({ where: { organizationId: w.organizationId, email, status: 'PENDING' } });
      if (accepted.status === 200) {
        expect([row.status, again.body.data[0].status, pending], `round ${i}`).toEqual(['ACCEPTED', 'already_member', 0]);
      } else {
        expect([accepted.status, row.status, again.body.data[0].status, pending], `round ${i}`).toEqual([404, 'REVOKED', 'invited', 1]);
      }
    }
  });

  describe('seat limits', () => {
    it('free plan: at most 3 members (409 naming the limit)', async () => {
      const owner = await testUser('free-owner');
      const org = (await call('POST', '/organizations', owner.token, { name: 'Free Org' })).body;
      const emails = [uniqueEmail('s1'), uniqueEmail('s2'), uniqueEmail('s3')];
      const sent = (await call('POST', invites(org.id), owner.token, { emails })).body.data;
      const users = await Promise.all(emails.map((e) => testUser('seat', e)));
      expect((await call('POST', '/invites/accept', users[0].token, { token: tokenOf(sent[0].link) })).status).toBe(200);
      expect((await call('POST', '/invites/accept', users[1].token, { token: tokenOf(sent[1].link) })).status).toBe(200);
      const full = await call('POST', '/invites/accept', users[2].token, { token: tokenOf(sent[2].link) });
      expect(full.status).toBe(409);
      expect(full.body.error.message).toMatch(/no free seat: the Free plan allows 3 members/);
      expect(full.body.error.metadata).toMatchObject({ seat_limit: 3, members: 3, plan_id: 'free' });
    });

    it('two acceptances racing for the last seat: exactly one wins', async () => {
      const owner = await testUser('race-owner');
      const org = (await call('POST', '/organizations', owner.token, { name: 'Race Org' })).body;
      await addMember(org.id, (await testUser('filler')).id, 'MEMBER'); // 2 of 3 seats taken
      const emails = [uniqueEmail('r1'), uniqueEmail('r2'), uniqueEmail('r3')];
      const sent = (await call('POST', invites(org.id), owner.token, { emails })).body.data;
      const users = await Promise.all(emails.map((e) => testUser('r', e)));
      const results = await Promise.all(users.map((u, i) => call('POST', '/invites/accept', u.token, { token: tokenOf(sent[i].link) })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      expect((await call('GET', `/organizations/${org.id}/members`, owner.token)).body.data).toHaveLength(3);
    });

    it('seat-limited subscription: its paid seats', async () => {
      const w = await organizationWorld('Teams Org'); // 4 members
      const prisma = await db();
      await prisma.subscription.create({ data: { organizationId: w.organizationId, planId: 'teams', status: 'ACTIVE', seats: 5, provider: 'SANDBOX' } });
      const emails = [uniqueEmail('t1'), uniqueEmail('t2')];
      const sent = (await call('POST', invites(w.organizationId), w.owner.token, { emails })).body.data;
      const users = await Promise.all(emails.map((e) => testUser('t', e)));
      expect((await call('POST', '/invites/accept', users[0].token, { token: tokenOf(sent[0].link) })).status).toBe(200);
      const full = await call('POST', '/invites/accept', users[1].token, { token: tokenOf(sent[1].link) });
      expect(full.status).toBe(409);
      expect(full.body.error.message).toMatch(/5 paid seats on the Teams plan/);
    });
  });
});
