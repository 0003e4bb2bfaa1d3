import { getCurrentKey } from '@/server/api-keys/get-current-key';
import { apiRoute } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

/** The calling API key's usage, limit and rate limit (OpenRouter's GET /api/v1/key). */
export const GET = apiRoute(async ({ principal }) => ({ data: await getCurrentKey({ apiKeyId: principal.kind === 'api_key' ? principal.apiKey?.id : undefined }) }));
