// Mistral's API accepts only tool-call ids of exactly nine characters a-z, A-Z, 0-9 and answers 400 to any
// other ("Tool call id was call_PTLP8xhu3uwZk4l3nlnrrJha but must be a-z, A-Z, 0-9, with a length of 9.",
// type invalid_function_call, code 3280 — as quoted in client projects' bug reports, e.g. opencode#1680,
// nearai/ironclaw#1241). The ids Mistral generates already conform, and clients send those back as they
// were: they pass unchanged, and nothing needs mapping back in answers or streams. Only foreign ids — from
// another provider earlier in the conversation (OpenAI's `call_…`, Anthropic's `toolu_…`) — are rewritten,
// deterministically (a hash in base 62), so an assistant message's tool_calls and the tool messages that
// answer them get the same new id in every request of the conversation, with no state kept anywhere.
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../types';

const CONFORMING = /^[A-Za-z0-9]{9}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SPACE = 62n ** 9n;

/** The id Mistral accepts for `id`: itself when it conforms, else 9 base-62 digits of its SHA-256. */
export function toMistralToolCallId(id: string): string {
  if (CONFORMING.test(id)) return id;
  let n = BigInt(`0x${createHash('sha256').update(id).digest('hex').slice(0, 16)}`) % SPACE;
  let out = '';
  for (let i = 0; i < 9; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

/** The converted messages with every tool-call id (assistant tool_calls, tool messages) in Mistral's form. */
export function remapMistralToolCallIds(messages: Record<string, unknown>[]): Record<string, unknown>[] {
  return messages.map((message) => {
    const m = message as { role?: unknown; tool_call_id?: unknown; tool_calls?: Extract<ChatMessage, { role: 'assistant' }>['tool_calls'] };
    if (m.role === 'tool' && typeof m.tool_call_id === 'string' && !CONFORMING.test(m.tool_call_id)) {
      return { ...message, tool_call_id: toMistralToolCallId(m.tool_call_id) };
    }
    if (m.role === 'assistant' && m.tool_calls?.some((call) => !CONFORMING.test(call.id))) {
      return { ...message, tool_calls: m.tool_calls.map((call) => ({ ...call, id: toMistralToolCallId(call.id) })) };
    }
    return message;
  });
}
