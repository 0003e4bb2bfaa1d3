// Email + password sign-in (next-auth's Credentials provider calls this). Throttled per email + address
// and per email (sign-in-throttle.ts); an unknown email costs the same scrypt work as a known one, so
// timing does not reveal which emails have accounts.
// A user with two-factor authentication on also needs a TOTP or recovery code (two-factor/): without one,
// after a right password, the answer is a 401 AppError with reason two_factor_required (the form then asks
// for the code); a wrong code is reason invalid_code. Every attempt, with or without a code, counts in the
// sign-in throttle until one fully succeeds, so codes cannot be guessed faster than passwords.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { emailSchema } from '@/server/users/create-user';
import { beginSignInAttempt, recordSignInSuccess } from './sign-in-throttle';
import { hashPassword, verifyPassword } from './password';
import { verifySecondFactor } from './two-factor/verify-second-factor';

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
}

let dummyHash: Promise<string> | undefined;

/**
 * The user when the password (and, with two-factor on, the code) is right, null when the password is not;
 * throws a 429 AppError while throttled and a 401 AppError (metadata.reason) when a second factor is missing or wrong.
 */
export async function verifyCredentials(p: { email: unknown; password: unknown; code?: unknown; ip: string; now?: Date }): Promise<SignedInUser | null> {
  const email = emailSchema.safeParse(p.email);
  if (!email.success || typeof p.password !== 'string' || p.password.length === 0 || p.password.length > 200) return null;
  await beginSignInAttempt({ email: email.data, ip: p.ip });
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: email.data }, select: { id: true, email: true, name: true, image: true, passwordHash: true, suspendedAt: true, totpEnabledAt: true } });
  dummyHash ??= hashPassword('timing-equaliser');
  const ok = await verifyPassword(p.password, user?.passwordHash ?? (await dummyHash));
  if (!ok || !user?.passwordHash) return null;
  // A suspended user is refused after the password check (so the answer reveals nothing to a guesser).
  if (user.suspendedAt) return null;
  if (user.totpEnabledAt) {
    const code = typeof p.code === 'string' ? p.code.trim() : '';
    if (!code) throw new AppError('unauthorized', 'Enter the code from your authenticator app, or a recovery code', { reason: 'two_factor_required' });
    const second = await verifySecondFactor({ userId: user.id, code, now: p.now });
    if (!second.ok) throw new AppError('unauthorized', 'That code is not right', { reason: 'invalid_code' });
  }
  await recordSignInSuccess({ email: email.data, ip: p.ip });
  return { id: user.id, email: user.email, name: user.name, image: user.image };
}
