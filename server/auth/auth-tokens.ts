// Account auth tokens: what first-party editor extensions and the CLI hold after the device or redirect
// flow. Stored as a SHA-256 hash with a display hint, like API keys; valid until revoked (or the user is
// deleted) — authenticate-bearer.ts reads the row on every request, so revocation is immediate.
import { z } from 'zod';
import { currentAuditActor } from '@/server/audit/audit-context';
import { recordAudit } from '@/server/audit/record-audit';
import { db, type Prisma } from '@/server/db';
import { AppError } from '@/server/errors';
import { generateSecret, hashSecret, secretHint, TOKEN_PREFIX } from './secret-token';

type Tx = Prisma.TransactionClient;

export const clientKindSchema = z.enum(['cli', 'editor', 'other']);
export type ClientKind = z.infer<typeof clientKindSchema>;

const authTokenSelect = { id: true, deviceName: true, clientKind: true, hint: true, createdAt: true, lastUsedAt: true, expiresAt: true } as const;

function toAuthTokenDto(t: { id: string; deviceName: string; clientKind: string; hint: string; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null }) {
  return {
    id: t.id,
    device_name: t.deviceName,
    client_kind: t.clientKind.toLowerCase() as ClientKind,
    hint: t.hint,
    created_at: t.createdAt.toISOString(),
    last_used_at: t.lastUsedAt?.toISOString() ?? null,
    expires_at: t.expiresAt?.toISOString() ?? null,
  };
}
export type AuthTokenDto = ReturnType<typeof toAuthTokenDto>;

/** Creates a token for the user; the secret is in the result only. */
export async function issueAuthToken(p: { userId: string; deviceName: string; clientKind: ClientKind; tx?: Tx }): Promise<{ token: string; authToken: AuthTokenDto }> {
  const issue = async (tx: Tx) => {
    const token = generateSecret(TOKEN_PREFIX.authToken);
    const row = await tx.authToken.create({
      data: {
        userId: p.userId,
        tokenHash: hashSecret(token),
        hint: secretHint(token, TOKEN_PREFIX.authToken),
        deviceName: p.deviceName.slice(0, 100),
        clientKind: p.clientKind.toUpperCase() as 'CLI' | 'EDITOR' | 'OTHER',
      },
      select: { ...authTokenSelect, user: { select: { personalAccountId: true } } },
    });
    const { user, ...fields } = row;
    const authToken = toAuthTokenDto(fields);
    // The device flow's token is fetched by the device (no credential but its code): it acts for the user who approved it.
    const actor = currentAuditActor();
    await recordAudit(tx, {
      accountId: user.personalAccountId,
      action: 'auth_token.create',
      target: { type: 'auth_token', id: authToken.id },
      after: authToken,
      ...(actor.kind === 'anonymous' ? { actor: { ...actor, kind: 'user' as const, userId: p.userId } } : {}),
    });
    return { token, authToken };
  };
  return p.tx ? issue(p.tx) : (await db()).$transaction(issue);
}

/** The user's live tokens, newest first. */
export async function listAuthTokens(p: { userId: string }): Promise<AuthTokenDto[]> {
  const prisma = await db();
  const rows = await prisma.authToken.findMany({
    where: { userId: p.userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: authTokenSelect,
    orderBy: { createdAt: 'desc' },
  });
  return rows.map(toAuthTokenDto);
}

/** Revokes one of the user's tokens; refused from the very next request. Someone else's token is a 404. */
export async function revokeAuthToken(p: { userId: string; tokenId: string }): Promise<void> {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const r = await tx.authToken.updateMany({ where: { id: p.tokenId, userId: p.userId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (r.count === 0) throw new AppError('not_found', 'Token not found');
    const row = await tx.authToken.findUniqueOrThrow({ where: { id: p.tokenId }, select: { ...authTokenSelect, user: { select: { personalAccountId: true } } } });
    const { user, ...fields } = row;
    await recordAudit(tx, { accountId: user.personalAccountId, action: 'auth_token.revoke', target: { type: 'auth_token', id: p.tokenId }, before: toAuthTokenDto(fields) });
  });
}
