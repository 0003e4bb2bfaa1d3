// Reasoning from a model that is not OpenAI's (Anthropic's signed thinking, Gemini's thought signatures) has
// no Responses API form, yet a Responses client (Codex, with store: false) keeps reasoning only as the
// `encrypted_content` of reasoning items and sends it back verbatim. So we wrap those reasoning_details in an
// envelope of our own, returned as encrypted_content and unwrapped on the next turn: the provider then gets
// its own signed reasoning back byte for byte. The envelope is not secret (its summary is shown anyway);
// a forged one only misleads the provider, which checks its own signatures.
import { z } from 'zod';
import type { ReasoningDetail } from '@/server/providers/types';

export const ENVELOPE_PREFIX = 'sbr1.';

const detailSchema = z.array(
  z.union([
    z.object({ type: z.literal('reasoning.text'), text: z.string(), signature: z.string().nullish(), format: z.string().optional(), index: z.number().optional(), id: z.string().optional() }),
    z.object({ type: z.literal('reasoning.encrypted'), data: z.string(), format: z.string().optional(), index: z.number().optional(), id: z.string().optional() }),
    z.object({ type: z.literal('reasoning.summary'), summary: z.string(), format: z.string().optional(), index: z.number().optional(), id: z.string().optional() }),
  ]),
);

/** Streamed fragments (reasoning.text pieces sharing an index) are joined first: one entry per block. */
export function wrapReasoning(details: ReasoningDetail[]): string {
  const joined: ReasoningDetail[] = [];
  for (const d of details) {
    const last = joined.at(-1);
    if (last?.type === 'reasoning.text' && d.type === 'reasoning.text' && d.index !== undefined && last.index === d.index) {
      joined[joined.length - 1] = { ...last, text: last.text + d.text, ...(d.signature ? { signature: d.signature } : {}) };
    } else joined.push({ ...d });
  }
  return ENVELOPE_PREFIX + Buffer.from(JSON.stringify(joined), 'utf8').toString('base64url');
}

export const isEnvelope = (encrypted: string) => encrypted.startsWith(ENVELOPE_PREFIX);

/** The details an envelope holds; undefined when it is not ours or does not read (then it is dropped). */
export function unwrapReasoning(encrypted: string): ReasoningDetail[] | undefined {
  if (!isEnvelope(encrypted)) return undefined;
  try {
    const parsed = detailSchema.safeParse(JSON.parse(Buffer.from(encrypted.slice(ENVELOPE_PREFIX.length), 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
