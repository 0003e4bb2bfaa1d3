// Serialises changes to one organization's membership inside a transaction (row lock on the
// organization): "is this the last owner?" and "is there a seat left?" are read-then-write decisions that
// two concurrent requests must not both pass. PGlite serialises transactions anyway; PostgreSQL needs this.
import type { Prisma } from '@/server/db';

export async function lockOrganizations(tx: Prisma.TransactionClient, organizationIds: string[]): Promise<void> {
  // One at a time in id order, so two transactions locking overlapping sets cannot deadlock.
  for (const id of [...new Set(organizationIds)].sort()) {
    await tx.$queryRaw`SELECT id FROM "Organization" WHERE id = ${id} FOR UPDATE`;
  }
}

export async function countOwners(tx: Prisma.TransactionClient, organizationId: string): Promise<number> {
  return tx.membership.count({ where: { organizationId, role: 'OWNER' } });
}
