// Admin authorization: a non-operator gets 403 on EVERY admin route, and the console's admin procedures
// refuse them. The routes come from the OpenAPI document (every path under /admin, every method), and every
// route file under app/api/v1/admin must be in that document, so a new admin route cannot be left out of this
// test (or of the reference) without it failing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '@/server/auth/operator';
import { db } from '@/server/db';
import { openApiDocument } from '@/server/http/openapi/document';
import { processRuntime } from '@/server/runtime/process-runtime';
import { appRouter, createCaller } from '@/server/trpc/root';
import { jsonClient, testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestOrganization } from '@/test/factories';

const ADMIN_DIR = path.resolve(__dirname, '..', '..', 'app', 'api', 'v1', 'admin');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Every (method, OpenAPI path) an admin route file exports, except the catch-all that answers unknown paths. */
function adminRouteFiles(dir = ADMIN_DIR, segments: string[] = []): [string, string][] {
  const out: [string, string][] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...adminRouteFiles(full, [...segments, name]));
    else if (name === 'route.ts' && !segments.some((s) => s.startsWith('[...path'))) {
      const source = readFileSync(full, 'utf8');
      const openApiPath = `/admin${segments.map((s) => `/${s.replace(/^\[(?:\.\.\.)?(.+)\]$/, '{$1}')}`).join('')}`;
      for (const m of METHODS) if (new RegExp(`export const ${m}\\b|as ${m}\\b`).test(source)) out.push([m, openApiPath]);
    }
  }
  return out;
}

/** Every documented admin operation, with its path parameters filled in. */
function documentedAdminOperations(): { method: string; path: string; template: string }[] {
  const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([p]) => p.startsWith('/admin/') || p === '/admin')
    .flatMap(([template, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), template, path: template.replace(/\{[^}]+\}/g, 'some-id') })));
}

// The operator's GETs of the routing routes start this process's runtime.
afterAll(() => processRuntime().close());

describeEachDatabase('admin authorization', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  let operator: TestUser;
  let user: TestUser;
  let userKey: string;
  let operatorOrganizationKey: string;

  beforeAll(async () => {
    api = await startApiServer();
    [operator, user] = await Promise.all([testUser('operator'), testUser('plain')]);
    await setOperator({ email: operator.email, operator: true });
    userKey = (await createTestKey(user.id, user.personalAccountId)).key;
    const org = await createTestOrganization({ name: 'Operator org', members: [{ userId: operator.id, role: 'OWNER' }] });
    operatorOrganizationKey = (await createTestKey(operator.id, org.id)).key;
  });
  afterAll(() => api?.close());

  it('every admin route file is in the OpenAPI document, and the document lists at least the issue’s routes', () => {
    const documented = new Set(documentedAdminOperations().map((o) => `${o.method} ${o.template}`));
    const files = adminRouteFiles().map(([m, p]) => `${m} ${p}`);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => !documented.has(f))).toEqual([]);
    for (const op of ['GET /admin/users', 'GET /admin/users/{id}', 'POST /admin/users/{id}/suspend', 'POST /admin/users/{id}/restore', 'POST /admin/accounts/{id}/adjustments', 'GET /admin/usage', 'GET /admin/audit-log', 'GET /admin/models', 'GET /admin/providers', 'GET /admin/key-health']) {
      expect(documented, op).toContain(op);
    }
  });

  it('every documented admin operation: 403 with the error body for a non-operator (API key or token) and an operator’s organization key, 401 without a credential; nothing changes', async () => {
    const prisma = await db();
    const auditBefore = await prisma.auditLogEntry.count();
    const ledgerBefore = await prisma.ledgerEntry.count();
    const operations = documentedAdminOperations();
    expect(operations.length).toBeGreaterThan(15);
    for (const { method, path: route } of operations) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { amount_usd: 1, reason: 'x', id: 'some-id' };
      for (const [who, credential] of [['user token', user.token], ['user key', userKey], ['operator’s organization key', operatorOrganizationKey]] as const) {
        const res = await call(method, route, credential, body);
        expect(res.status, `${method} ${route} as ${who}`).toBe(403);
        expect(res.body, `${method} ${route} as ${who}`).toEqual({ error: { code: 403, message: expect.stringMatching(/^Operators only/), metadata: expect.anything() } });
      }
      const anonymous = await call(method, route, null, body);
      expect(anonymous.status, `${method} ${route} anonymous`).toBe(401);
      expect(anonymous.body.error).toMatchObject({ code: 401, message: expect.any(String) });
    }
    expect(await prisma.auditLogEntry.count()).toBe(auditBefore);
    expect(await prisma.ledgerEntry.count()).toBe(ledgerBefore);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).suspendedAt).toBeNull();
  });

  it('the same routes answer an operator (so the 403s above are the check, not a broken route)', async () => {
    for (const route of ['/admin/users', `/admin/users/${user.id}`, '/admin/usage', '/admin/audit-log', '/admin/models', '/admin/providers', '/admin/key-health']) {
      const res = await call('GET', route, operator.token);
      expect(res.status, route).toBe(200);
    }
  });

  it('every admin tRPC procedure refuses a non-operator (FORBIDDEN) and a signed-out caller (UNAUTHORIZED) before reading its input', async () => {
    const names = Object.keys(appRouter._def.procedures).filter((n) => n.startsWith('admin.')).map((n) => n.slice('admin.'.length));
    expect(names.length).toBeGreaterThanOrEqual(10);
    const plain = createCaller({ principal: { kind: 'session', userId: user.id, accountId: user.personalAccountId } });
    const signedOut = createCaller({ principal: null });
    type AnyProcedure = (input: unknown) => Promise<unknown>;
    for (const name of names) {
      for (const [caller, code] of [[plain, 'FORBIDDEN'], [signedOut, 'UNAUTHORIZED']] as const) {
        const procedure = (caller.admin as unknown as Record<string, AnyProcedure>)[name];
        const error = await procedure({}).then(() => null, (e: unknown) => e);
        expect(error, `admin.${name}`).toBeInstanceOf(TRPCError);
        expect((error as TRPCError).code, `admin.${name}`).toBe(code);
      }
    }
    const asOperator = createCaller({ principal: { kind: 'session', userId: operator.id, accountId: operator.personalAccountId } });
    const found = await asOperator.admin.users({ q: user.email });
    expect(found.data.map((u) => u.id)).toEqual([user.id]);
    // A revoked flag takes effect on the next call.
    await setOperator({ email: operator.email, operator: false });
    await expect(asOperator.admin.users({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await setOperator({ email: operator.email, operator: true });
  });
});
