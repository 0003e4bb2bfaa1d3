'use client';

// One turn of the conversation. Assistant turns show their reasoning (collapsible), tool calls, the text,
// and a footer with tokens, cost and timing — the same figures the usage page records.
import { formatInteger, formatMs, formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { ButtonLink } from '@/components/ui/button';
import type { Turn } from './use-chat';

function prettyJson(text: string) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function MessageView({ turn }: { turn: Turn }) {
  if (turn.role === 'user') {
    return (
      <li className="flex justify-end">
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-accent px-4 py-2.5 text-sm leading-6 whitespace-pre-wrap text-accent-foreground">
          <span className="sr-only">You: </span>
          {turn.content}
        </div>
      </li>
    );
  }
  const u = turn.usage;
  return (
    <li className="flex justify-start">
      <article aria-label={`Reply from ${turn.model}`} aria-busy={turn.streaming} className="w-full max-w-[92%] rounded-2xl rounded-bl-md border border-border bg-surface-raised px-4 py-3 shadow-xs">
        <p className="mb-2 font-mono text-xs text-muted">{turn.model}</p>
        {turn.reasoning ? (
          <details className="mb-3 rounded-lg border border-border bg-surface px-3 py-2 text-sm" open={turn.streaming && !turn.content}>
            <summary className="cursor-pointer font-medium text-muted">Reasoning{u?.completion_tokens_details?.reasoning_tokens ? ` · ${formatInteger(u.completion_tokens_details.reasoning_tokens)} tokens` : ''}</summary>
            <p data-testid="reasoning" className="mt-2 leading-6 whitespace-pre-wrap text-muted">
              {turn.reasoning}
            </p>
          </details>
        ) : null}
        {turn.toolCalls.map((call, i) => (
          <div key={call.id || i} className="mb-3 overflow-hidden rounded-lg border border-border text-sm">
            <p className="border-b border-border bg-surface px-3 py-1.5 text-xs font-medium text-muted">
              Tool call · <span className="font-mono text-foreground">{call.name}</span>
            </p>
            <pre className="overflow-x-auto px-3 py-2 font-mono text-xs leading-5 text-foreground">{prettyJson(call.arguments)}</pre>
          </div>
        ))}
        {turn.content ? (
          <div data-testid="assistant-content" className="text-sm leading-6 whitespace-pre-wrap text-foreground">
            {turn.content}
          </div>
        ) : turn.streaming && !turn.reasoning ? (
          <p className="flex items-center gap-1 text-sm text-muted" role="status">
            <span className="sr-only">Waiting for the reply</span>
            <span aria-hidden="true" className="size-1.5 animate-bounce rounded-full bg-muted [animation-delay:-0.2s]" />
            <span aria-hidden="true" className="size-1.5 animate-bounce rounded-full bg-muted [animation-delay:-0.1s]" />
            <span aria-hidden="true" className="size-1.5 animate-bounce rounded-full bg-muted" />
          </p>
        ) : null}
        {turn.error ? (
          <Notice
            tone="error"
            className="mt-3"
            action={
              turn.error.addCredits ? (
                <ButtonLink href="/billing#buy-credits" size="sm">
                  Add credits
                </ButtonLink>
              ) : undefined
            }
          >
            {turn.error.message}
          </Notice>
        ) : null}
        {!turn.streaming ? (
          <dl data-testid="reply-stats" className="mt-3 flex flex-wrap gap-x-4 gap-y-1 border-t border-border pt-2 text-xs text-muted">
            {u ? (
              <>
                <div className="flex gap-1">
                  <dt>Tokens</dt>
                  <dd className="text-foreground tabular-nums">
                    {formatInteger(u.prompt_tokens)} in · {formatInteger(u.completion_tokens)} out
                    {u.prompt_tokens_details?.cached_tokens ? ` · ${formatInteger(u.prompt_tokens_details.cached_tokens)} cached` : ''}
                  </dd>
                </div>
                <div className="flex gap-1">
                  <dt>Cost</dt>
                  <dd className="text-foreground tabular-nums">{formatUsd(u.cost ?? 0)}</dd>
                </div>
              </>
            ) : null}
            {turn.ttftMs !== null ? (
              <div className="flex gap-1">
                <dt>First token</dt>
                <dd className="text-foreground tabular-nums">{formatMs(turn.ttftMs)}</dd>
              </div>
            ) : null}
            {turn.durationMs !== null ? (
              <div className="flex gap-1">
                <dt>Total</dt>
                <dd className="text-foreground tabular-nums">{formatMs(turn.durationMs)}</dd>
              </div>
            ) : null}
            {turn.finishReason || turn.stopped ? (
              <div className="flex gap-1">
                <dt>Finish</dt>
                <dd className="text-foreground">{turn.stopped ? 'stopped' : turn.finishReason}</dd>
              </div>
            ) : null}
          </dl>
        ) : null}
      </article>
    </li>
  );
}
