import { apiReferenceScript } from '@/server/http/openapi/api-reference-page';

export function GET() {
  return new Response(apiReferenceScript().body, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' },
  });
}
