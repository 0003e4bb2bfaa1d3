// Model lookups on the chat path come from an in-memory copy of the catalog (it changes only when an
// operator seeds it), refreshed every 30 s, so resolving a model costs no database round trip.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import type { CatalogEntry } from './catalog-data';

export type CatalogModel = CatalogEntry & { enabled: boolean };

const TTL_MS = 30_000;
let cache: { at: number; byId: Map<string, CatalogModel> } | null = null;
let loading: Promise<Map<string, CatalogModel>> | null = null;

export function invalidateCatalogCache(): void {
  cache = null;
}

async function load(): Promise<Map<string, CatalogModel>> {
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
  cache = { at: Date.now(), byId };
  return byId;
}

export async function catalog(): Promise<Map<string, CatalogModel>> {
  if (cache && Date.now() - cache.at < TTL_MS) return cache.byId;
  loading ??= load().finally(() => {
    loading = null;
  });
  return loading;
}

export async function listModels(): Promise<CatalogModel[]> {
  return [...(await catalog()).values()].filter((m) => m.enabled);
}

export async function resolveModelOrThrow(id: string): Promise<CatalogModel> {
  const m = (await catalog()).get(id);
  if (!m || !m.enabled) {
    throw new AppError('not_found', `Model "${id}" not found. Use a provider/model-name id from GET /api/v1/models, e.g. "openai/gpt-4o-mini".`, { model: id });
  }
  return m;
}
