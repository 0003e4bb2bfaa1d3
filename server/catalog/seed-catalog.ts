import { db } from '@/server/db';
import { BUILTIN_MODELS, type CatalogEntry } from './catalog-data';
import { invalidateCatalogCache } from './resolve-model';

/** Upserts the built-in models plus any operator-defined ones (CUSTOM_PROVIDERS); returns how many. */
export async function seedCatalog(extra: CatalogEntry[] = []): Promise<number> {
  const prisma = await db();
  const entries = [...BUILTIN_MODELS, ...extra];
  for (const m of entries) {
    await prisma.catalogModel.upsert({ where: { id: m.id }, create: { ...m, enabled: true }, update: { ...m } });
  }
  invalidateCatalogCache();
  return entries.length;
}
