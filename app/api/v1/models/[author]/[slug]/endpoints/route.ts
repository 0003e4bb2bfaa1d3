import { apiRoute } from '@/server/http/api-route';
import { modelEndpoints } from '@/server/routing/model-endpoints';
import { runtimeRouting } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

// Public, like GET /api/v1/models and OpenRouter's: a model's endpoints, prices and current health.
export const GET = apiRoute<{ author: string; slug: string }>(
  async ({ params }) => {
    const { routing, health } = await runtimeRouting();
    return modelEndpoints(routing.table(), health, `${params.author}/${params.slug}`);
  },
  { public: true },
);
