import { openaiResponsesFormat } from '@/server/formats/openai-responses/openai-responses-format';
import { handleChatRequest } from '@/server/gateway/route-handler';
import { processRuntime } from '@/server/runtime/process-runtime';

export const dynamic = 'force-dynamic';

/** POST /api/v1/responses: the OpenAI Responses API (server/formats/openai-responses). */
export function POST(request: Request) {
  return handleChatRequest(processRuntime(), request, undefined, openaiResponsesFormat);
}
