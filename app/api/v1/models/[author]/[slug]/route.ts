import { getModelOrThrow } from '@/server/catalog/get-model-or-throw';
import { toModelDto } from '@/server/catalog/models-dto';
import { apiRoute } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

// Public, like GET /api/v1/models: one item of that list.
export const GET = apiRoute<{ author: string; slug: string }>(
  async ({ params }) => toModelDto(await getModelOrThrow(`${params.author}/${params.slug}`)),
  { public: true },
);
