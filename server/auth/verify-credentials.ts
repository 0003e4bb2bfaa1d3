// Email + password sign-in (next-auth's Credentials provider calls this). Throttled per email + address
// and per email (sign-in-throttle.ts); an unknown email costs the same scrypt work as a known one, so
// timing does not reveal which emails have accounts.
import { db } from '@/server/db';
import { emailSchema } from '@/server/users/create-user';
import { beginSignInAttempt, recordSignInSuccess } from './sign-in-throttle';
import { hashPassword, verifyPassword } from './password';

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
}

let dummyHash: Promise<string> | undefined;

/** The user when the password is right, null when not; throws a 429 AppError while throttled. */
export async function verifyCredentials(p: { email: unknown; password: unknown; ip: string }): Promise<SignedInUser | null> {
  const email = emailSchema.safeParse(p.email);
  if (!email.success || typeof p.password !== 'string' || p.password.length === 0 || p.password.length > 200) return null;
  await beginSignInAttempt({ email: email.data, ip: p.ip });
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: email.data }, select: { id: true, email: true, name: true, image: true, passwordHash: true, suspendedAt: true } });
  dummyHash ??= hashPassword('timing-equaliser');
  const ok = await verifyPassword(p.password, user?.passwordHash ?? (await dummyHash));
  if (!ok || !user?.passwordHash) return null;
  // A suspended user is refused after the password check (so the answer reveals nothing to a guesser).
  if (user.suspendedAt) return null;
  await recordSignInSuccess({ email: email.data, ip: p.ip });
  return { id: user.id, email: user.email, name: user.name, image: user.image };
}
