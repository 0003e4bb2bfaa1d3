// Test support: data that tests need but that no service creates yet, or that would be slow to create
// through the gateway. Organizations are written directly (Account kind ORGANIZATION + Organization with
// the same id + Membership rows) until the organizations service exists; usage records are inserted with
// chosen timestamps so that filters, pagination, grouping and metrics can be checked exactly.
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { grantCredits } from '@/server/ledger/balance';
import type { Role } from '@/server/organizations/permissions';
import { createUser, type UserDto } from '@/server/users/create-user';

export async function createTestUser(usd = 0): Promise<{ user: UserDto; key: string; apiKeyId: string }> {
  // No password: scrypt would cost ~100 ms per user, and API keys are all these tests need.
  const user = await createUser({ email: `u-${randomUUID()}@example.com` });
  if (usd > 0) await grantCredits({ accountId: user.personal_account_id, amountMicros: BigInt(Math.round(usd * 1e6)), idempotencyKey: `test-seed:${user.id}` });
  const { key, apiKey } = await createApiKey({ userId: user.id, input: { name: 'test' } });
  return { user, key, apiKeyId: apiKey.id };
}

export interface TestOrganization {
  id: string;
  slug: string;
}

/** An organization whose account holds `usd` of paid credit, with the given members. */
export async function createTestOrganization(p: { members: { userId: string; role: Role }[]; usd?: number; name?: string }): Promise<TestOrganization> {
  const prisma = await db();
  const name = p.name ?? `Org ${randomUUID().slice(0, 8)}`;
  const slug = `org-${randomUUID().slice(0, 12)}`;
  const org = await prisma.$transaction(async (tx) => {
    const account = await tx.account.create({ data: { kind: 'ORGANIZATION', name }, select: { id: true } });
    await tx.organization.create({ data: { id: account.id, name, slug, createdById: p.members[0]?.userId } });
    for (const m of p.members) await tx.membership.create({ data: { organizationId: account.id, userId: m.userId, role: m.role } });
    return account;
  });
  if (p.usd) await grantCredits({ accountId: org.id, amountMicros: BigInt(Math.round(p.usd * 1e6)), idempotencyKey: `test-seed:${org.id}` });
  return { id: org.id, slug };
}

/** An API key of `userId` billing to `accountId` (their personal account or an organization). */
export async function createTestKey(userId: string, accountId: string, input: { credit_limit?: number; limit_reset?: 'never' | 'daily' | 'weekly' | 'monthly'; allowed_models?: string[] } = {}) {
  const { key, apiKey } = await createApiKey({ userId, input: { name: 'test', account_id: accountId, ...input } });
  return { key, id: apiKey.id };
}

export interface UsageRow {
  accountId: string;
  userId?: string | null;
  apiKeyId?: string | null;
  model?: string;
  provider?: string;
  createdAt?: Date;
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
  costMicros?: bigint;
  cacheSavingsMicros?: bigint;
  latencyMs?: number;
  ttftMs?: number | null;
  status?: 'SUCCESS' | 'ERROR' | 'ABORTED' | 'REFUSED';
  httpStatus?: number | null;
  finishReason?: string | null;
  streamed?: boolean;
  errorCode?: string | null;
  errorMessage?: string | null;
  xTitle?: string | null;
  httpReferer?: string | null;
  taskId?: string | null;
}

/** Inserts usage records as settlement would have written them (no ledger entries: for read paths only). */
export async function insertUsage(rows: UsageRow[]): Promise<string[]> {
  const prisma = await db();
  const ids = rows.map(() => `gen-test-${randomUUID()}`);
  await prisma.usageRecord.createMany({
    data: rows.map((r, i) => ({
      id: ids[i],
      accountId: r.accountId,
      userId: r.userId ?? null,
      apiKeyId: r.apiKeyId ?? null,
      model: r.model ?? 'openai/gpt-4o-mini',
      provider: r.provider ?? (r.model ?? 'openai/gpt-4o-mini').split('/')[0],
      promptTokens: r.promptTokens ?? 10,
      completionTokens: r.completionTokens ?? 5,
      cachedTokens: r.cachedTokens ?? 0,
      reasoningTokens: r.reasoningTokens ?? 0,
      costMicros: r.costMicros ?? 100n,
      cacheSavingsMicros: r.cacheSavingsMicros ?? 0n,
      latencyMs: r.latencyMs ?? 100,
      ttftMs: r.ttftMs === undefined ? 50 : r.ttftMs,
      status: r.status ?? 'SUCCESS',
      finishReason: r.finishReason === undefined ? (r.status === 'ERROR' ? 'error' : 'stop') : r.finishReason,
      streamed: r.streamed ?? true,
      errorCode: r.errorCode ?? null,
      errorMessage: r.errorMessage ?? null,
      httpStatus: r.httpStatus ?? null,
      xTitle: r.xTitle ?? null,
      httpReferer: r.httpReferer ?? null,
      taskId: r.taskId ?? null,
      createdAt: r.createdAt ?? new Date(),
    })),
  });
  return ids;
}

/** A JSON fetch against a test server's /api/v1. */
export function apiCaller(origin: () => string) {
  return (method: string, path: string, key: string | null, body?: unknown) =>
    fetch(`${origin()}/api/v1${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}
