import { handleCountTokens } from '@/server/formats/anthropic-messages/handle-count-tokens';
import { processRuntime } from '@/server/runtime/process-runtime';

export const dynamic = 'force-dynamic';

export function POST(request: Request) {
  return handleCountTokens(processRuntime(), request);
}
