// The model list as one account sees it (the console's Models page, playground picker and key dialog):
// each model with whether it can be used here (model-usability.ts: routing table + organization policy +
// the account's own provider keys) and whether the balance covers the key dialog's first request.
import { db } from '@/server/db';
import { parseChatRequest } from '@/server/gateway/chat-request-schema';
import { reservationMicros } from '@/server/gateway/cost';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { microsToUsd } from '@/server/ledger/money';
import { organizationSettingsSchema } from '@/server/organizations/organization-dto';
import type { RoutingModel } from '@/server/routing/routing-table';
import { listModels } from './list-models';
import { modelUsability, type AccountModelPolicy } from './model-usability';
import { toModelDto } from './models-dto';
import { tryItBody } from './try-it-request';

export async function accountModelPolicy(accountId: string): Promise<AccountModelPolicy & { defaultModel: string | null }> {
  const prisma = await db();
  const [org, keys] = await Promise.all([
    prisma.organization.findUnique({ where: { id: accountId }, select: { settings: true } }),
    prisma.providerKey.findMany({ where: { accountId }, select: { provider: true } }),
  ]);
  const parsed = organizationSettingsSchema.safeParse(org?.settings ?? {});
  const s = parsed.success ? parsed.data : {};
  const list = (v: string[] | undefined) => (v && v.length > 0 ? v : null);
  return { allowedModels: list(s.allowed_models), allowedProviders: list(s.allowed_providers), byokProviders: keys.map((k) => k.provider), defaultModel: s.default_model ?? null };
}

/** What the key dialog's snippet would hold at admission: the dearest endpoint that could serve it. */
export function trialReservationMicros(m: RoutingModel): bigint {
  if (m.kind !== 'chat') return 0n;
  const req = parseChatRequest(tryItBody(m.id));
  return m.endpoints.reduce((max, e) => {
    const r = reservationMicros(req, e);
    return r > max ? r : max;
  }, 0n);
}

export async function listModelsForAccount(p: { accountId: string }) {
  const [models, policy, balance] = await Promise.all([listModels(), accountModelPolicy(p.accountId), getBalanceOrThrow(p.accountId)]);
  const prisma = await db();
  const account = await prisma.account.findUnique({ where: { id: p.accountId }, select: { creditFloorMicros: true } });
  // The same rule as admission (ledger/reserve.ts): available − amount ≥ −credit floor.
  const spendable = balance.availableMicros + (account?.creditFloorMicros ?? 0n);
  return {
    default_model: policy.defaultModel,
    data: models.map((m) => {
      const trial = trialReservationMicros(m);
      return { ...toModelDto(m), usability: modelUsability(m, policy), trial: { reserved: microsToUsd(trial), covered: trial <= spendable } };
    }),
  };
}
