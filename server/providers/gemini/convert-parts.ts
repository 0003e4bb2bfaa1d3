// Candidate parts → OpenAI-shaped deltas, shared by the streaming converter (one call per chunk) and the
// non-streaming one (a single call), so both surface thoughts, signatures and tool calls identically.
import { randomBytes } from 'node:crypto';
import type { ReasoningDetail, StreamDelta } from '../types';
import type { GeminiResponsePart } from './generate-content-response';

/** `format` on the reasoning_details we emit and the only one convert-request sends back to Gemini. */
export const GEMINI_REASONING_FORMAT = 'google-gemini-v1';

/** Gemini gives function calls no id; OpenAI clients need one to answer with a tool message. */
export function generateToolCallId(): string {
  return `call_${randomBytes(12).toString('base64url')}`;
}

export interface PartsConverter {
  convert(parts: GeminiResponsePart[]): StreamDelta[];
  /** Tool calls emitted so far: STOP after a function call means finish_reason "tool_calls". */
  readonly toolCallCount: number;
}

/**
 * Stateful so indexes run across stream chunks: tool calls are numbered 0, 1, … and every reasoning detail
 * gets the next `index`, except that consecutive thought parts (a thought summary streamed over several
 * chunks) share one index, as OpenRouter clients expect when they concatenate reasoning_details by index.
 * Every thoughtSignature is surfaced, wherever Gemini put it:
 *  - on a thought part → reasoning.text { text, signature }
 *  - on a functionCall part → reasoning.encrypted { data, id: that tool call's id }, so convert-request can
 *    put it back on the same functionCall (Gemini validates those signatures on later turns)
 *  - on a text part (often an empty one closing the stream) → reasoning.encrypted { data } without id.
 */
export function createPartsConverter(): PartsConverter {
  let nextDetailIndex = 0;
  let thoughtIndex: number | null = null; // index of the thought run in progress
  let toolCallCount = 0;

  const detail = (d: ReasoningDetail): StreamDelta => ({ reasoning_details: [d] });

  function convertPart(part: GeminiResponsePart): StreamDelta[] {
    const signature = part.thoughtSignature || undefined;
    if (part.thought === true) {
      const text = part.text ?? '';
      if (!text && !signature) return [];
      thoughtIndex ??= nextDetailIndex++;
      const reasoning: ReasoningDetail = { type: 'reasoning.text', text, format: GEMINI_REASONING_FORMAT, index: thoughtIndex };
      if (signature) reasoning.signature = signature;
      return [{ ...(text ? { reasoning: text } : {}), reasoning_details: [reasoning] }];
    }
    thoughtIndex = null;
    const deltas: StreamDelta[] = [];
    if (part.functionCall) {
      const id = part.functionCall.id || generateToolCallId();
      deltas.push({
        tool_calls: [
          {
            index: toolCallCount++,
            id,
            type: 'function',
            // Gemini sends each call whole, never in fragments, so the first delta carries all of it.
            function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
          },
        ],
      });
      if (signature) deltas.push(detail({ type: 'reasoning.encrypted', data: signature, format: GEMINI_REASONING_FORMAT, id, index: nextDetailIndex++ }));
      return deltas;
    }
    if (part.text) deltas.push({ content: part.text });
    if (signature) deltas.push(detail({ type: 'reasoning.encrypted', data: signature, format: GEMINI_REASONING_FORMAT, index: nextDetailIndex++ }));
    // inlineData (image output), executableCode and codeExecutionResult have no place in a chat completion.
    return deltas;
  }

  return {
    convert: (parts) => parts.flatMap(convertPart),
    get toolCallCount() {
      return toolCallCount;
    },
  };
}
