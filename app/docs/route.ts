import { apiReferencePage } from '@/server/http/openapi/api-reference-page';

export function GET() {
  return new Response(apiReferencePage(), { headers: { 'content-type': 'text/html; charset=utf-8' } });
}
