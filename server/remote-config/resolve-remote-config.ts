// Merges the remote configuration layers: code defaults → GLOBAL rows → the organization's rows (when the
// account is an organization) → the user's rows. Each row is one top-level key; objects merge key by key
// (so an organization can switch off one feature flag), anything else — arrays included — replaces.
import { db } from '@/server/db';
import { REMOTE_CONFIG_DEFAULTS, type RemoteConfig } from './remote-config-defaults';

export type ConfigSource = 'default' | 'global' | 'organization' | 'user';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge of plain objects; `over` wins, arrays and scalars replace. */
export function mergeConfig(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? mergeConfig(out[k], v) : v;
  return out;
}

export interface ResolvedRemoteConfig {
  account_id: string;
  config: RemoteConfig;
  /** Which layer last set each top-level key. */
  sources: Record<string, ConfigSource>;
}

export function applyLayers(layers: { source: ConfigSource; rows: { key: string; value: unknown }[] }[]): Omit<ResolvedRemoteConfig, 'account_id'> {
  let config: RemoteConfig = structuredClone(REMOTE_CONFIG_DEFAULTS) as unknown as RemoteConfig;
  const sources: Record<string, ConfigSource> = Object.fromEntries(Object.keys(config).map((k) => [k, 'default' as const]));
  for (const layer of layers) {
    for (const row of layer.rows) {
      config = mergeConfig(config, { [row.key]: row.value }) as RemoteConfig;
      sources[row.key] = layer.source;
    }
  }
  return { config, sources };
}

/** The configuration for an account (personal or organization), optionally with a user's own layer. */
export async function resolveRemoteConfig(p: { accountId: string; organizationId?: string | null; userId?: string }): Promise<ResolvedRemoteConfig> {
  const prisma = await db();
  const scopes = [
    { scope: 'GLOBAL' as const, scopeId: '' },
    ...(p.organizationId ? [{ scope: 'ORGANIZATION' as const, scopeId: p.organizationId }] : []),
    ...(p.userId ? [{ scope: 'USER' as const, scopeId: p.userId }] : []),
  ];
  const rows = await prisma.remoteConfig.findMany({ where: { OR: scopes }, select: { scope: true, scopeId: true, key: true, value: true }, orderBy: { key: 'asc' } });
  const layer = (source: ConfigSource, scope: string) => ({ source, rows: rows.filter((r) => r.scope === scope) });
  return { account_id: p.accountId, ...applyLayers([layer('global', 'GLOBAL'), layer('organization', 'ORGANIZATION'), layer('user', 'USER')]) };
}

/** GET /users/me/remote-config: the active account's organization layer (if any), then the user's. */
export async function resolveUserRemoteConfig(p: { userId: string }): Promise<ResolvedRemoteConfig> {
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({
    where: { id: p.userId },
    select: { personalAccountId: true, activeAccountId: true },
  });
  const accountId = user.activeAccountId ?? user.personalAccountId;
  const organization = accountId === user.personalAccountId ? null : await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: accountId, userId: p.userId } }, select: { organizationId: true } });
  return resolveRemoteConfig({ accountId: organization ? accountId : user.personalAccountId, organizationId: organization?.organizationId, userId: p.userId });
}
