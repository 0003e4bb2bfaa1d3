// GET /api/v1/generation?id=gen-…: one generation's full record, for the user who made it or a member of
// its account allowed to read everyone's usage (owner, admin, billing). Anyone else gets the same 404 as
// for an id that does not exist, so generation ids of other tenants cannot be probed.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { toGenerationDto, usageRecordSelect, type GenerationDto } from './usage-dto';

export const generationQuery = z.object({
  id: safeString().min(1, 'id is required').max(200).describe('The generation id (gen-…) returned as `id` by /chat/completions'),
});

const notFound = (id: string) =>
  new AppError('not_found', `Generation ${id} not found. Usage is recorded a moment after a response ends; retry shortly if it just finished.`, { id });

/** `withinAccountId`: the caller is an API key bound to that organization, which sees its generations only. */
export async function getGeneration(p: { userId: string; generationId: string; withinAccountId?: string }): Promise<GenerationDto> {
  const prisma = await db();
  const row = await prisma.usageRecord.findUnique({ where: { id: p.generationId }, select: usageRecordSelect });
  if (!row || (p.withinAccountId !== undefined && row.accountId !== p.withinAccountId)) throw notFound(p.generationId);
  if (row.userId !== p.userId) {
    await assertAccountAccess({ userId: p.userId, accountId: row.accountId, permission: 'usage:read-all' }).catch(() => {
      throw notFound(p.generationId);
    });
  }
  return toGenerationDto(row);
}
