import { handleChatRequest } from '@/server/gateway/route-handler';

export const dynamic = 'force-dynamic';

export function POST(request: Request) {
  return handleChatRequest(request);
}
