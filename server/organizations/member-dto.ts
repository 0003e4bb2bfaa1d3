// A member of an organization. `{memberId}` in the API is the member's user id (stable, and the same id
// usage records carry), so `id` and `user_id` are equal; the membership row's own id never leaves here.
import { z } from 'zod';
import { ROLES, type Role } from './permissions';

export const roleSchema = z.enum(['owner', 'admin', 'billing', 'member']);
export type RoleName = z.infer<typeof roleSchema>;

export const toRole = (r: RoleName): Role => r.toUpperCase() as Role;
export const roleName = (r: Role): RoleName => r.toLowerCase() as RoleName;
export const isRole = (r: string): r is Role => (ROLES as readonly string[]).includes(r);

export const memberSelect = { role: true, createdAt: true, user: { select: { id: true, email: true, name: true, image: true } } } as const;

export function toMemberDto(m: { role: Role; createdAt: Date; user: { id: string; email: string; name: string; image: string | null } }) {
  return {
    id: m.user.id,
    user_id: m.user.id,
    email: m.user.email,
    name: m.user.name,
    image: m.user.image,
    role: roleName(m.role),
    joined_at: m.createdAt.toISOString(),
  };
}
export type MemberDto = ReturnType<typeof toMemberDto>;
