// The provider's customer for a billable account. Stripe's id is kept on Account.stripeCustomerId; the
// creating call is idempotent per account, and a conditional update keeps the first id stored.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import type { PaymentProvider } from './payment-provider';

export async function ensureCustomer(provider: PaymentProvider, accountId: string): Promise<string> {
  const prisma = await db();
  const a = await prisma.account.findUnique({
    where: { id: accountId },
    select: { name: true, stripeCustomerId: true, personalOwner: { select: { email: true } } },
  });
  if (!a) throw new AppError('not_found', 'Account not found');
  if (provider.name === 'STRIPE' && a.stripeCustomerId) return a.stripeCustomerId;
  const customerId = await provider.ensureCustomer({ accountId, name: a.name, email: a.personalOwner?.email ?? null });
  if (provider.name === 'STRIPE') {
    await prisma.account.updateMany({ where: { id: accountId, stripeCustomerId: null }, data: { stripeCustomerId: customerId } });
  }
  return customerId;
}
