// Operators run this Switchboard instance: they may use /api/v1/admin/ (models, providers, keys). A user is
// an operator when User.isOperator is set (`npm run cli -- user:admin --email E`) or their email is listed in
// ADMIN_EMAILS. Checked on every admin request against the database, so a revoked flag or a removed email
// takes effect on the next request, on every instance.
//
// Which credentials may act as an operator: the user's own ones (an account auth token, a console session,
// an API key of their personal account). An API key created for an organization acts for that organization,
// not as its creator (server/http/authorize.ts): it never carries its creator's operator role, so a key handed
// to a team's tool cannot administer the instance.
import { recordAudit } from '@/server/audit/record-audit';
import type { Principal } from '@/server/auth/authenticate-bearer';
import { db } from '@/server/db';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { findUserByEmailOrThrow } from '@/server/users/create-user';

/** Whether ADMIN_EMAILS lists this email (trimmed, case-insensitive). */
export function isAdminEmail(email: string): boolean {
  return env().ADMIN_EMAILS.includes(email.trim().toLowerCase());
}

type OperatorCheck = 'operator' | 'not_operator' | 'organization_key';

async function checkOperator(principal: Principal): Promise<OperatorCheck> {
  const user = await (await db()).user.findUnique({ where: { id: principal.userId }, select: { email: true, isOperator: true, personalAccountId: true } });
  if (!user || !(user.isOperator || isAdminEmail(user.email))) return 'not_operator';
  return principal.kind === 'api_key' && principal.accountId !== user.personalAccountId ? 'organization_key' : 'operator';
}

/** Whether the user behind `principal` is an operator and this credential may act as them. */
export async function isOperator(principal: Principal): Promise<boolean> {
  return (await checkOperator(principal)) === 'operator';
}

/** Every /api/v1/admin/ route starts here: 403 (the spec's body) for everyone but an operator. */
export async function requireOperatorOrThrow(principal: Principal): Promise<void> {
  const check = await checkOperator(principal);
  if (check === 'operator') return;
  throw new AppError(
    'forbidden',
    check === 'organization_key'
      ? 'Operators only: an API key created for an organization acts for it, not as its creator; use a personal API key or an auth token'
      : 'Operators only: this route administers the instance (ADMIN_EMAILS, or `npm run cli -- user:admin --email E`)',
  );
}

/** Sets or clears User.isOperator (the CLI's user:admin). ADMIN_EMAILS is not changed by this. */
export async function setOperator(p: { email: string; operator: boolean }): Promise<{ id: string; email: string; is_operator: boolean; admin_email: boolean }> {
  const found = await findUserByEmailOrThrow(p.email);
  const user = await (await db()).$transaction(async (tx) => {
    const before = await tx.user.findUniqueOrThrow({ where: { id: found.id }, select: { isOperator: true } });
    const updated = await tx.user.update({ where: { id: found.id }, data: { isOperator: p.operator }, select: { id: true, email: true, isOperator: true, personalAccountId: true } });
    if (before.isOperator !== updated.isOperator) {
      await recordAudit(tx, {
        accountId: updated.personalAccountId,
        action: p.operator ? 'user.operator_grant' : 'user.operator_revoke',
        target: { type: 'user', id: updated.id },
        before: { is_operator: before.isOperator },
        after: { is_operator: updated.isOperator },
      });
    }
    return updated;
  });
  return { id: user.id, email: user.email, is_operator: user.isOperator, admin_email: isAdminEmail(user.email) };
}

/** Whether the user may use the operators' console (the flag or ADMIN_EMAILS); false for an unknown user. */
export async function isOperatorUser(userId: string): Promise<boolean> {
  const user = await (await db()).user.findUnique({ where: { id: userId }, select: { email: true, isOperator: true } });
  return !!user && (user.isOperator || isAdminEmail(user.email));
}
