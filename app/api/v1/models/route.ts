import { listModels } from '@/server/catalog/list-models';
import { toModelDto } from '@/server/catalog/models-dto';
import { apiRoute } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

// Public, like OpenRouter's: the catalog is not a secret and tools list models before a key exists.
export const GET = apiRoute(async () => ({ data: (await listModels()).map(toModelDto) }), { public: true });
