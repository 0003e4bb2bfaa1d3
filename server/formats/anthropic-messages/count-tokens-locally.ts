// A prompt's size in tokens where no provider counts it: a real tokenizer (o200k_base, the encoding of
// OpenAI's current models) over the text the model would read. Claude's own tokenizer is not published, so
// for a Claude model this is an estimate; Anthropic's count_tokens is asked instead where it can be.
import { IMAGE_TOKENS } from '@/server/providers/estimate-tokens';
import type { ChatRequest } from '@/server/providers/types';

/** Role and turn framing per message, as chat templates add it (OpenAI's documented 3 + 1 for the role). */
const TOKENS_PER_MESSAGE = 4;
/** A document part: nothing of a PDF can be counted without reading it; Anthropic's figure for a short page. */
const DOCUMENT_TOKENS = 1_500;

/**
 * The encoding's ranks are ~17 MB of heap once loaded, so they are loaded on the first count, not when the
 * server starts: most servers never count tokens locally (Anthropic models are counted by Anthropic).
 */
let tokenizer: Promise<(text: string) => number> | undefined;
let loaded: ((text: string) => number) | undefined;
export const loadTokenizer = () =>
  (tokenizer ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    loaded = m.countTokens;
    return m.countTokens;
  }));

export async function countTokensLocally(req: Pick<ChatRequest, 'messages' | 'tools'>): Promise<number> {
  return countTokensWith(await loadTokenizer(), req);
}

/** The same count without waiting, once loadTokenizer() has loaded the encoding; undefined before. */
export function countTokensIfLoaded(req: Pick<ChatRequest, 'messages' | 'tools'>): number | undefined {
  return loaded ? countTokensWith(loaded, req) : undefined;
}

function countTokensWith(countTokens: (text: string) => number, req: Pick<ChatRequest, 'messages' | 'tools'>): number {
  let tokens = 0;
  for (const m of req.messages) {
    tokens += TOKENS_PER_MESSAGE;
    const parts = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : (m.content ?? []);
    for (const p of parts) {
      if (p.type === 'text') tokens += countTokens(p.text);
      else if (p.type === 'image_url') tokens += IMAGE_TOKENS;
      else tokens += DOCUMENT_TOKENS;
    }
    if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) tokens += countTokens(c.function.name) + countTokens(c.function.arguments);
      if (m.reasoning) tokens += countTokens(m.reasoning);
      for (const d of m.reasoning_details ?? []) tokens += countTokens(d.type === 'reasoning.text' ? d.text : d.type === 'reasoning.summary' ? d.summary : '');
    }
  }
  for (const t of req.tools ?? []) tokens += countTokens(JSON.stringify(t.function));
  return tokens;
}
