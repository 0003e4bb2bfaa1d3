// First-run data: the plans and, on an empty embedded database, a demo account. (The model catalog is not
// seeded: it is the routing table, built in memory from code, configuration and the operators' entries.)
import { randomBytes } from 'node:crypto';
import { db } from '@/server/db';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { BUILTIN_PLANS } from '@/server/billing/plan-data';
import { grantCredits } from '@/server/ledger/balance';
import { createUser } from '@/server/users/create-user';
import { CURRENT_TERMS_VERSION } from '@/server/users/terms';

export async function seedPlans(): Promise<number> {
  const prisma = await db();
  for (const p of BUILTIN_PLANS) {
    const data = { ...p, features: [...p.features] };
    await prisma.plan.upsert({ where: { id: p.id }, create: data, update: data });
  }
  return BUILTIN_PLANS.length;
}

export async function seed(): Promise<{ plans: number }> {
  return { plans: await seedPlans() };
}

const SEEDED = Symbol.for('switchboard.seeded');
type GlobalWithSeed = typeof globalThis & { [SEEDED]?: Promise<{ plans: number }> };

/**
 * seed(), once per process. The production server seeds before Next starts, and Next's instrumentation hook
 * (instrumentation.ts: `next dev`, or `next start` without our server) asks again; the two are separate
 * copies of this module in one process, hence globalThis.
 */
export function ensureSeeded(): Promise<{ plans: number }> {
  const g = globalThis as GlobalWithSeed;
  g[SEEDED] ??= seed().catch((err) => {
    delete g[SEEDED];
    throw err;
  });
  return g[SEEDED];
}

export const DEMO_EMAIL = 'demo@switchboard.local';
export const DEMO_CREDIT_MICROS = 5_000_000n;

export interface DemoAccount {
  email: string;
  password: string;
  key: string;
  creditUsd: number;
}

/** Creates the demo account when the database has no users at all; returns its credentials once. */
export async function ensureDemoAccount(): Promise<DemoAccount | null> {
  const prisma = await db();
  if ((await prisma.user.count()) > 0) return null;
  const password = randomBytes(9).toString('base64url');
  const user = await createUser({ email: DEMO_EMAIL, password, name: 'Demo', emailVerified: true });
  await prisma.user.update({ where: { id: user.id }, data: { termsVersion: CURRENT_TERMS_VERSION, termsAcceptedAt: new Date() } });
  await grantCredits({ accountId: user.personal_account_id, amountMicros: DEMO_CREDIT_MICROS, kind: 'ADJUSTMENT', idempotencyKey: `demo-credit:${user.id}`, note: 'Demo account credit' });
  const { key } = await createApiKey({ userId: user.id, input: { name: 'Demo key' } });
  return { email: DEMO_EMAIL, password, key, creditUsd: Number(DEMO_CREDIT_MICROS) / 1e6 };
}
