// OpenAI routes requests with the same `prompt_cache_key` to the same cache. An agent's turns of one task
// share their long prefix, and agents name the task in X-Task-ID (the header admission already reads for
// usage records and key affinity), so that header is the key when the client sent none. Read from the
// request's headers at parse time: no database round trip.
import type { ChatRequest } from '@/server/providers/types';

/** The longest key our schema accepts (chat-request-schema.ts); a longer header is not used. */
const MAX_KEY_LENGTH = 1024;

/**
 * Sets `req.prompt_cache_key` from the X-Task-ID header when the request has none, in place. Every wire
 * format calls it from its `parse` (chat completions, messages, responses), so the key reaches OpenAI
 * whichever API the client spoke.
 */
export function defaultPromptCacheKey(req: ChatRequest, header: (name: string) => string | undefined): ChatRequest {
  if (req.prompt_cache_key !== undefined) return req;
  const taskId = header('x-task-id')?.trim();
  if (taskId && taskId.length <= MAX_KEY_LENGTH) req.prompt_cache_key = taskId;
  return req;
}
