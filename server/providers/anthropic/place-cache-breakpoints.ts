// Prompt-cache breakpoints of one Messages API request: the client's own, counted against Anthropic's limit,
// or, when it set none and asked for automatic caching (the request's top-level `cache_control`), ours.
//
// Anthropic renders a request as tools → system → messages and caches the prefix up to each block that
// carries `cache_control` (platform.claude.com/docs/en/build-with-claude/prompt-caching). `ttl: "1h"` is part
// of the generally available API (CacheControlEphemeral in anthropic-sdk-typescript's non-beta messages
// resource), so no `extended-cache-ttl-2025-04-11` beta header is sent for it.
import { AppError } from '@/server/errors';
import type { ChatRequest } from '@/server/providers/types';

export type CacheControl = NonNullable<ChatRequest['cache_control']>;

/** Anthropic answers 400 to a request with more breakpoints than this. */
export const MAX_CACHE_BREAKPOINTS = 4;

type Cacheable = { cache_control?: CacheControl };
interface Layout {
  tools?: Cacheable[];
  system: Cacheable[];
  messages: { role: 'user' | 'assistant'; content: (Cacheable & { type: string; content?: unknown })[] }[];
}

/** Every block that may carry a breakpoint, tool_result contents included, in Anthropic's render order. */
function cacheableBlocks(layout: Layout): Cacheable[] {
  const blocks: Cacheable[] = [...(layout.tools ?? []), ...layout.system];
  for (const message of layout.messages) {
    for (const block of message.content) {
      blocks.push(block);
      if (block.type === 'tool_result' && Array.isArray(block.content)) blocks.push(...(block.content as Cacheable[]));
    }
  }
  return blocks;
}

/**
 * Checks the client's breakpoints (at most MAX_CACHE_BREAKPOINTS, a 400 naming the count otherwise) or, when
 * there are none and `auto` is set, marks the last tool, the last system block and the last block of the
 * last user turn (a tool_result in a tool loop), in place: the prefix an agent resends every turn.
 */
export function placeCacheBreakpoints(layout: Layout, auto: CacheControl | undefined): void {
  const marked = cacheableBlocks(layout).filter((block) => block.cache_control !== undefined).length;
  if (marked > MAX_CACHE_BREAKPOINTS) {
    throw new AppError(
      'bad_request',
      `This request marks ${marked} prompt-cache breakpoints (cache_control); Anthropic allows at most ${MAX_CACHE_BREAKPOINTS} per request. Remove ${marked - MAX_CACHE_BREAKPOINTS}.`,
      { cache_breakpoints: marked, max_cache_breakpoints: MAX_CACHE_BREAKPOINTS },
    );
  }
  if (marked > 0 || !auto) return;
  const lastUserTurn = layout.messages.findLast((message) => message.role === 'user');
  const targets = [layout.tools?.at(-1), layout.system.at(-1), lastUserTurn?.content.at(-1)];
  for (const block of targets) if (block) block.cache_control = { ...auto };
}
