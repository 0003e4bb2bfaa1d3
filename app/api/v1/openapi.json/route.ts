import { openApiDocument } from '@/server/http/openapi/document';

export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json(openApiDocument('/api/v1'), { headers: { 'access-control-allow-origin': '*' } });
}
