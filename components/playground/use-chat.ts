'use client';

// The playground conversation: sends the history to the console's chat route (the real gateway, billed
// to the active account) and streams the reply into the last turn. Stop aborts the request, which the
// gateway passes on to the provider.
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTRPC } from '@/components/console/trpc';
import { applyChunk, emptyTurn, sseData, type AssistantTurn } from './read-chat-stream';

export type Turn = { role: 'user'; content: string } | ({ role: 'assistant' } & AssistantTurn);

export interface ChatOptions {
  model: string;
  system: string;
  temperature: number | null;
  maxTokens: number | null;
  reasoning: 'default' | 'off' | 'low' | 'medium' | 'high';
  tools: unknown[] | null;
}

function toMessages(turns: Turn[], system: string) {
  const messages: { role: string; content: string }[] = system.trim() ? [{ role: 'system', content: system.trim() }] : [];
  for (const t of turns) {
    if (t.role === 'user') messages.push({ role: 'user', content: t.content });
    else if (!t.error) {
      // Tool calls are shown, not executed: earlier calls go back as text so the next turn stays valid.
      const calls = t.toolCalls.map((c) => `[called ${c.name}(${c.arguments})]`).join('\n');
      const content = [t.content, calls].filter(Boolean).join('\n');
      if (content) messages.push({ role: 'assistant', content });
    }
  }
  return messages;
}

export function useChat() {
  const [turns, setTurns] = useState<Turn[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  const streaming = turns.at(-1)?.role === 'assistant' && (turns.at(-1) as AssistantTurn).streaming;

  const updateLast = (fn: (t: AssistantTurn) => AssistantTurn) =>
    setTurns((list) => {
      const last = list.at(-1);
      if (!last || last.role !== 'assistant') return list;
      return [...list.slice(0, -1), { role: 'assistant', ...fn(last) }];
    });

  async function send(text: string, options: ChatOptions) {
    const history: Turn[] = [...turns, { role: 'user', content: text }];
    setTurns([...history, { role: 'assistant', ...emptyTurn(options.model) }]);
    const controller = new AbortController();
    abortRef.current = controller;
    const started = performance.now();
    const body = {
      model: options.model,
      messages: toMessages(history, options.system),
      stream: true,
      ...(options.temperature !== null ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== null ? { max_tokens: options.maxTokens } : {}),
      ...(options.reasoning === 'off' ? { reasoning: { enabled: false } } : options.reasoning !== 'default' ? { reasoning: { effort: options.reasoning } } : {}),
      ...(options.tools?.length ? { tools: options.tools } : {}),
    };
    try {
      const res = await fetch('/api/console/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-title': 'Switchboard playground' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        const json = await res.json().catch(() => null);
        const message = json?.error?.message ?? `The request failed (HTTP ${res.status})`;
        updateLast((t) => ({ ...t, streaming: false, error: { code: res.status, message, addCredits: res.status === 402 } }));
        return;
      }
      for await (const data of sseData(res.body)) {
        if (data === '[DONE]') break;
        const chunk = JSON.parse(data);
        updateLast((t) => applyChunk(t, chunk, Math.round(performance.now() - started)));
      }
      updateLast((t) => ({ ...t, streaming: false, durationMs: Math.round(performance.now() - started) }));
    } catch (err) {
      const aborted = (err as Error).name === 'AbortError';
      updateLast((t) => ({ ...t, streaming: false, stopped: aborted, durationMs: Math.round(performance.now() - started), error: aborted ? null : { code: 'network', message: 'The connection was lost before the reply finished.' } }));
    } finally {
      abortRef.current = null;
      // The reply was charged: balance and usage have moved.
      void queryClient.invalidateQueries({ queryKey: trpc.billing.balance.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.usage.pathKey() });
    }
  }

  return {
    turns,
    streaming,
    send,
    stop: () => abortRef.current?.abort(),
    clear: () => {
      abortRef.current?.abort();
      setTurns([]);
    },
  };
}
