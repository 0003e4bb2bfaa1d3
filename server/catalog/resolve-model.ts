// The model catalog as the chat path sees it: an in-memory copy (it changes only when an operator seeds
// it), refreshed every 30 s, so resolving a model costs no database round trip. One copy per runtime
// (server/runtime), never module-level state: a fresh runtime (a test's) starts with an empty copy.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import type { CatalogEntry } from './catalog-data';

export type CatalogModel = CatalogEntry & { enabled: boolean };

const TTL_MS = 30_000;

/** Every catalog model from the database, enabled or not, by id. */
async function loadCatalog(): Promise<Map<string, CatalogModel>> {
  const prisma = await db();
  const rows = await prisma.catalogModel.findMany({ orderBy: { id: 'asc' } });
  const byId = new Map<string, CatalogModel>();
  for (const r of rows) {
    byId.set(r.id, {
      id: r.id, name: r.name, description: r.description, provider: r.provider, upstreamModel: r.upstreamModel,
      contextLength: r.contextLength, maxOutputTokens: r.maxOutputTokens, inputPrice: r.inputPrice, outputPrice: r.outputPrice,
      cacheReadPrice: r.cacheReadPrice, cacheWritePrice: r.cacheWritePrice, supportsReasoning: r.supportsReasoning,
      supportsImages: r.supportsImages, supportsTools: r.supportsTools, enabled: r.enabled,
    });
  }
  return byId;
}

/** The enabled models, read from the database (the public model list and the console; not the chat path). */
export async function listModels(): Promise<CatalogModel[]> {
  return [...(await loadCatalog()).values()].filter((m) => m.enabled);
}

/** The runtime's cached catalog (runtime.catalog): concurrent misses share one load. */
export class ModelCatalog {
  private cache: { at: number; byId: Map<string, CatalogModel> } | null = null;
  private loading: Promise<Map<string, CatalogModel>> | null = null;

  constructor(private readonly ttlMs = TTL_MS) {}

  private async byId(): Promise<Map<string, CatalogModel>> {
    if (this.cache && Date.now() - this.cache.at < this.ttlMs) return this.cache.byId;
    this.loading ??= loadCatalog()
      .then((byId) => ((this.cache = { at: Date.now(), byId }), byId))
      .finally(() => (this.loading = null));
    return this.loading;
  }

  /** The enabled model `id`, or a 404 AppError naming it. */
  async resolveOrThrow(id: string): Promise<CatalogModel> {
    const m = (await this.byId()).get(id);
    if (!m || !m.enabled) {
      throw new AppError('not_found', `Model "${id}" not found. Use a provider/model-name id from GET /api/v1/models, e.g. "openai/gpt-4o-mini".`, { model: id });
    }
    return m;
  }
}
