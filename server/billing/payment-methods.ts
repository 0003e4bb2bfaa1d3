// The saved card of an account: set up through a checkout in setup mode (Stripe's or the sandbox's), stored
// when the provider confirms it, and used for direct purchases, auto top-up and plan subscriptions.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { ensureCustomer } from './ensure-customer';
import { paymentProvider, type CardDetails, type ProviderName } from './payment-provider';
import { toPaymentMethodDto, type PaymentMethodDto } from './payment-dto';
import { setupReturnUrls } from './return-urls';

const methodSelect = { id: true, provider: true, providerId: true, brand: true, last4: true, expMonth: true, expYear: true, createdAt: true } as const;

export async function defaultPaymentMethodRow(accountId: string, provider: ProviderName) {
  const prisma = await db();
  return prisma.paymentMethod.findFirst({
    where: { accountId, provider, isDefault: true, deletedAt: null },
    orderBy: { createdAt: 'desc' },
    select: methodSelect,
  });
}

/** The default card for the provider in use, or null. */
export async function getDefaultPaymentMethod(p: { accountId: string }): Promise<PaymentMethodDto | null> {
  const provider = await paymentProvider();
  const row = await defaultPaymentMethodRow(p.accountId, provider.name);
  return row ? toPaymentMethodDto(row) : null;
}

/** Same as getDefaultPaymentMethod, but a missing card is the caller's 402 with the way to add one. */
export async function defaultPaymentMethodOrThrow(accountId: string, provider: ProviderName, setupPath: string) {
  const row = await defaultPaymentMethodRow(accountId, provider);
  if (!row) {
    throw new AppError('payment_required', `No saved payment method: add one with POST ${setupPath}, then try again`, { reason: 'no_payment_method', setup_path: setupPath });
  }
  return row;
}

export interface SetupSessionDto {
  checkout_session_id: string;
  url: string;
  expires_at: string | null;
}

export async function createSetupSession(p: { accountId: string; origin: string }): Promise<SetupSessionDto> {
  const provider = await paymentProvider();
  const customerId = await ensureCustomer(provider, p.accountId);
  const s = await provider.createSetupSession({ accountId: p.accountId, customerId, ...setupReturnUrls(p.origin) });
  return { checkout_session_id: s.id, url: s.url, expires_at: s.expiresAt?.toISOString() ?? null };
}

/** Stores a confirmed card and makes it the account's default (idempotent per provider card id). */
export async function savePaymentMethod(p: { accountId: string; provider: ProviderName; card: CardDetails }): Promise<PaymentMethodDto> {
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    // Serialise default changes per account: the account row lock orders concurrent saves.
    await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${p.accountId} FOR UPDATE`;
    const fields = { brand: p.card.brand, last4: p.card.last4, expMonth: p.card.expMonth, expYear: p.card.expYear };
    const existing = await tx.paymentMethod.findUnique({ where: { providerId: p.card.providerId }, select: { isDefault: true, deletedAt: true } });
    const wasDefault = !!existing?.isDefault && !existing.deletedAt;
    const saved = await tx.paymentMethod.upsert({
      where: { providerId: p.card.providerId },
      create: { accountId: p.accountId, provider: p.provider, providerId: p.card.providerId, ...fields, isDefault: true },
      update: { ...fields, isDefault: true, deletedAt: null },
      select: { ...methodSelect, accountId: true },
    });
    if (saved.accountId !== p.accountId) throw new AppError('conflict', 'This payment method belongs to another account');
    const replaced = await tx.paymentMethod.findFirst({ where: { accountId: p.accountId, provider: p.provider, isDefault: true, id: { not: saved.id } }, select: methodSelect });
    await tx.paymentMethod.updateMany({ where: { accountId: p.accountId, provider: p.provider, isDefault: true, id: { not: saved.id } }, data: { isDefault: false } });
    // The provider confirms the same card more than once (webhook and return page): a change is recorded once.
    if (replaced || !wasDefault) {
      await recordAudit(tx, { accountId: p.accountId, action: 'payment_method.set_default', target: { type: 'payment_method', id: saved.id }, before: replaced ? toPaymentMethodDto(replaced) : null, after: toPaymentMethodDto(saved) });
    }
    return saved;
  });
  return toPaymentMethodDto(row);
}
