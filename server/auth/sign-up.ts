// POST /api/v1/auth/sign-up: a new user with their personal account. The browser sign-up page calls it,
// then signs in through next-auth. Quota: SIGN_UPS_PER_HOUR (default 20) sign-ups per address per hour.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { createUser, emailSchema, passwordSchema, type UserDto } from '@/server/users/create-user';
import { env } from '@/server/env';
import { consumeQuota } from './sign-in-throttle';

export const signUpInput = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: safeString().trim().min(1, 'Name is required').max(100),
});
export type SignUpInput = z.input<typeof signUpInput>;

export async function signUp(p: { input: SignUpInput; ip: string }): Promise<UserDto> {
  const input = signUpInput.parse(p.input);
  await consumeQuota({ key: `signup:${p.ip}`, limit: env().SIGN_UPS_PER_HOUR, windowMs: 3600_000, what: 'sign-ups' });
  return createUser({ email: input.email, password: input.password, name: input.name });
}
