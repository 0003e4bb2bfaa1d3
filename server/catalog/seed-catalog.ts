import { db } from '@/server/db';
import { BUILTIN_MODELS, type CatalogEntry } from './catalog-data';

/**
 * Upserts the built-in models plus any operator-defined ones (CUSTOM_PROVIDERS); returns how many. A running
 * gateway sees the change when its runtime's catalog copy expires (at most 30 s).
 */
export async function seedCatalog(extra: CatalogEntry[] = []): Promise<number> {
  const prisma = await db();
  const entries = [...BUILTIN_MODELS, ...extra];
  for (const m of entries) {
    await prisma.catalogModel.upsert({ where: { id: m.id }, create: { ...m, enabled: true }, update: { ...m } });
  }
  return entries.length;
}
