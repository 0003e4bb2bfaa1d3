import { handleChatRequest } from '@/server/gateway/route-handler';
import { processRuntime } from '@/server/runtime/process-runtime';

export const dynamic = 'force-dynamic';

export function POST(request: Request) {
  return handleChatRequest(processRuntime(), request);
}
