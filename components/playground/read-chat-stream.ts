// Reads the gateway's SSE stream (OpenAI chat.completion.chunk events, then [DONE]) into one assistant
// turn: content, reasoning, tool calls, the finish reason, usage with cost, or the error chunk.

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cost?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface AssistantTurn {
  content: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: ChatUsage | null;
  error: { code: string | number; message: string; addCredits?: boolean } | null;
  generationId: string | null;
  model: string;
  /** Time to the first content or reasoning delta, and to the end (ms). */
  ttftMs: number | null;
  durationMs: number | null;
  streaming: boolean;
  stopped?: boolean;
}

export const emptyTurn = (model: string): AssistantTurn => ({
  content: '', reasoning: '', toolCalls: [], finishReason: null, usage: null, error: null, generationId: null, model, ttftMs: null, durationMs: null, streaming: true,
});

interface Delta {
  content?: string | null;
  reasoning?: string | null;
  tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

interface Chunk {
  id?: string;
  choices?: { delta?: Delta; finish_reason?: string | null }[];
  usage?: ChatUsage | null;
  error?: { code?: string | number; message?: string };
}

/** Applies one chunk to the turn (a new object, for React state). */
export function applyChunk(turn: AssistantTurn, chunk: Chunk, elapsedMs: number): AssistantTurn {
  const next = { ...turn, toolCalls: [...turn.toolCalls] };
  if (chunk.id && !next.generationId) next.generationId = chunk.id;
  const choice = chunk.choices?.[0];
  const delta = choice?.delta;
  if (delta?.content) next.content += delta.content;
  if (delta?.reasoning) next.reasoning += delta.reasoning;
  for (const call of delta?.tool_calls ?? []) {
    const i = call.index ?? next.toolCalls.length;
    const prev = next.toolCalls[i] ?? { id: '', name: '', arguments: '' };
    next.toolCalls[i] = { id: call.id ?? prev.id, name: prev.name + (call.function?.name ?? ''), arguments: prev.arguments + (call.function?.arguments ?? '') };
  }
  if (next.ttftMs === null && (delta?.content || delta?.reasoning || delta?.tool_calls?.length)) next.ttftMs = elapsedMs;
  if (choice?.finish_reason) next.finishReason = choice.finish_reason;
  if (chunk.usage) next.usage = chunk.usage;
  if (chunk.error) next.error = { code: chunk.error.code ?? 'error', message: chunk.error.message ?? 'The request failed' };
  return next;
}

/** Splits an SSE byte stream into `data:` payloads; comments (keep-alives) are skipped. */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    const events = buffer.split(/\r?\n\r?\n/);
    buffer = done ? '' : (events.pop() ?? '');
    for (const event of events) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) yield data;
    }
    if (done) return;
  }
}
