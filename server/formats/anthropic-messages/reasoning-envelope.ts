// Reasoning from a model that is not Claude (OpenAI's encrypted reasoning, Gemini's thought signatures)
// must survive a round trip through an Anthropic client, which keeps only thinking blocks (text + an opaque
// signature) and redacted_thinking blocks (opaque data) and sends them back verbatim. Such a detail is
// sealed into the opaque field — the signature of a thinking block, the data of a redacted one — and
// opened again when the client replays it, so the other provider gets its own reasoning back on the next
// turn. Claude's own details are written as Anthropic wrote them, never sealed.
import type { ReasoningDetail } from '@/server/providers/types';
import { REASONING_FORMAT } from '@/server/providers/anthropic/convert-response';

const PREFIX = 'sbrd1.';

/** Details Anthropic minted (ours are stamped "anthropic-claude-v1"; none means they came from Anthropic too). */
export const isAnthropicDetail = (detail: ReasoningDetail) => detail.format === undefined || detail.format.startsWith('anthropic');

/** A foreign detail without its text (the text travels in the thinking block itself). */
export function sealDetail(detail: Record<string, unknown>): string {
  return PREFIX + Buffer.from(JSON.stringify(detail), 'utf8').toString('base64url');
}

/** The detail sealed in `value`, or null when it is Anthropic's own signature or data. */
export function openDetail(value: string): Record<string, unknown> | null {
  if (!value.startsWith(PREFIX)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value.slice(PREFIX.length), 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A replayed thinking block → the reasoning detail it carries (null: unsigned text, kept as plain reasoning). */
export function thinkingToDetail(thinking: string, signature: string, index: number): ReasoningDetail | null {
  const sealed = openDetail(signature);
  if (sealed) {
    if (sealed.type === 'reasoning.summary') return { ...sealed, type: 'reasoning.summary', summary: thinking } as ReasoningDetail;
    return { ...sealed, type: 'reasoning.text', text: thinking } as ReasoningDetail;
  }
  if (!signature) return null;
  return { type: 'reasoning.text', text: thinking, signature, format: REASONING_FORMAT, index };
}

/** A replayed redacted_thinking block → its reasoning detail. */
export function redactedToDetail(data: string, index: number): ReasoningDetail {
  const sealed = openDetail(data);
  if (sealed && typeof sealed.data === 'string') return { ...sealed, type: 'reasoning.encrypted', data: sealed.data } as ReasoningDetail;
  return { type: 'reasoning.encrypted', data, format: REASONING_FORMAT, index };
}

/** The fields of a foreign detail that are not its text, to seal into a thinking block's signature. */
export function detailMeta(detail: ReasoningDetail): Record<string, unknown> {
  const { text: _text, summary: _summary, ...meta } = detail as ReasoningDetail & { text?: string; summary?: string };
  return meta;
}
