import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { hashPassword, PASSWORD_MIN_LENGTH } from '@/server/auth/password';
import { AppError } from '@/server/errors';

export const emailSchema = safeString().trim().toLowerCase().email('Enter a valid email address').max(254);
export const passwordSchema = safeString().min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`).max(200);

export const createUserInput = z.object({
  email: emailSchema,
  password: passwordSchema.optional(),
  name: safeString().trim().max(100).optional(),
  emailVerified: z.boolean().optional(),
});
export type CreateUserInput = z.input<typeof createUserInput>;

export interface UserDto {
  id: string;
  email: string;
  name: string;
  active_account_id: string;
  personal_account_id: string;
  created_at: string;
}

export const userSelect = { id: true, email: true, name: true, activeAccountId: true, personalAccountId: true, createdAt: true } as const;

export function toUserDto(u: { id: string; email: string; name: string; activeAccountId: string | null; personalAccountId: string; createdAt: Date }): UserDto {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    active_account_id: u.activeAccountId ?? u.personalAccountId,
    personal_account_id: u.personalAccountId,
    created_at: u.createdAt.toISOString(),
  };
}

/** Creates a user with their personal billable account. Email is unique (case-insensitive). */
export async function createUser(raw: CreateUserInput): Promise<UserDto> {
  const input = createUserInput.parse(raw);
  const prisma = await db();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const name = input.name ?? input.email.split('@')[0];
  try {
    const user = await prisma.$transaction(async (tx) => {
      const account = await tx.account.create({ data: { kind: 'PERSONAL', name }, select: { id: true } });
      return tx.user.create({
        data: {
          email: input.email,
          name,
          passwordHash,
          emailVerifiedAt: input.emailVerified ? new Date() : null,
          personalAccountId: account.id,
          activeAccountId: account.id,
        },
        select: userSelect,
      });
    });
    return toUserDto(user);
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new AppError('conflict', `A user with email ${input.email} already exists`);
    throw err;
  }
}

export async function findUserByEmailOrThrow(email: string): Promise<UserDto> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: emailSchema.parse(email) }, select: userSelect });
  if (!user) throw new AppError('not_found', `No user with email ${email}`);
  return toUserDto(user);
}
