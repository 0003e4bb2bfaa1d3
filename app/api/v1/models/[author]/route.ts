import { getModelOrThrow } from '@/server/catalog/get-model-or-throw';
import { toModelDto } from '@/server/catalog/models-dto';
import { apiRoute } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

// The OpenAI SDK's models.retrieve("author/slug") percent-encodes the slash (GET /models/author%2Fslug):
// one path segment, which arrives here decoded.
export const GET = apiRoute<{ author: string }>(async ({ params }) => toModelDto(await getModelOrThrow(params.author)), { public: true });
