'use client';

// Chat with any model through the gateway, paid from the active account's credit: streaming replies with
// their reasoning, tool calls, tokens and cost.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '@/components/console/errors';
import { Icon } from '@/components/console/icons';
import { PageHeader } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { LowBalanceNotice } from '@/components/overview/low-balance-notice';
import { Button } from '@/components/ui/button';
import { MessageView } from './message-view';
import { SettingsPanel, type Settings } from './settings-panel';
import { useChat } from './use-chat';

function parseTools(text: string): { tools: unknown[] | null; error?: string } {
  if (!text.trim()) return { tools: null };
  try {
    const parsed = JSON.parse(text);
    return Array.isArray(parsed) ? { tools: parsed } : { tools: null, error: 'Tools must be a JSON array' };
  } catch {
    return { tools: null, error: 'Not valid JSON' };
  }
}

export function PlaygroundPage({ initialModel }: { initialModel?: string }) {
  const trpc = useTRPC();
  const models = useQuery(trpc.models.forAccount.queryOptions());
  const chatModels = (models.data?.data ?? []).filter((m) => m.kind === 'chat'); // embedding models have no chat
  const balance = useQuery(trpc.billing.balance.queryOptions());
  const chat = useChat();
  const [settings, setSettings] = useState<Settings>({ model: initialModel ?? 'switchboard/echo', system: '', temperature: '', maxTokens: '', reasoning: 'default', tools: '' });
  const [input, setInput] = useState('');
  const selectedUsable = chatModels.find((m) => m.id === settings.model)?.usability.usable ?? false;
  const [formError, setFormError] = useState<string | null>(null);
  const conversationRef = useRef<HTMLDivElement>(null);
  const tools = parseTools(settings.tools);

  // Follow the reply inside the conversation's own box. (scrollIntoView would scroll the page too, pushing the
  // message box below a phone's screen.)
  useEffect(() => {
    const box = conversationRef.current;
    box?.scrollTo({ top: box.scrollHeight, behavior: 'smooth' });
  }, [chat.turns]);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const text = input.trim();
    if (!text || chat.streaming) return;
    if (models.data && !selectedUsable) return setFormError(`${settings.model} cannot be used here. Pick a model from the list.`);
    const temperature = settings.temperature.trim() ? Number(settings.temperature) : null;
    const maxTokens = settings.maxTokens.trim() ? Number(settings.maxTokens) : null;
    if (temperature !== null && !(temperature >= 0 && temperature <= 2)) return setFormError('Temperature must be between 0 and 2.');
    if (maxTokens !== null && !(Number.isInteger(maxTokens) && maxTokens > 0)) return setFormError('Max tokens must be a positive whole number.');
    if (tools.error) return setFormError(`Tools: ${tools.error}`);
    setFormError(null);
    setInput('');
    void chat.send(text, { model: settings.model, system: settings.system, temperature, maxTokens, reasoning: settings.reasoning, tools: tools.tools });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Playground"
        description="Chat with any model through the gateway. Replies are billed to this account at the model's price, like any request."
        actions={
          <Button variant="secondary" onClick={chat.clear} disabled={chat.turns.length === 0}>
            Clear chat
          </Button>
        }
      />
      {balance.data ? <LowBalanceNotice balance={balance.data} /> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        {/* A phone keeps the message box on screen: the conversation takes the viewport's height and scrolls inside
            itself, the message box sticks to the bottom of the screen while any of the conversation shows, and the
            settings follow below. */}
        <section aria-label="Conversation" className="flex h-[calc(100dvh-16rem)] min-h-[18rem] flex-col rounded-2xl border border-border bg-surface-raised shadow-xs lg:h-[calc(100dvh-14rem)] lg:min-h-[28rem]">
          {/* Focusable: the keyboard can scroll back through a conversation longer than the box. */}
          <div ref={conversationRef} tabIndex={0} className="flex-1 overflow-y-auto rounded-t-2xl px-4 py-5 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring sm:px-6">
            {chat.turns.length === 0 ? (
              <EmptyState icon={<Icon name="playground" />} title="Start a conversation" className="my-auto border-none">
                Pick a model, type a message and press Enter. <code className="font-mono text-xs">switchboard/echo</code> answers with your own words, free.
              </EmptyState>
            ) : (
              <ol aria-live="polite" className="space-y-4">
                {chat.turns.map((turn, i) => (
                  <MessageView key={i} turn={turn} />
                ))}
              </ol>
            )}
          </div>
          <form onSubmit={submit} className="sticky bottom-0 z-10 rounded-b-2xl border-t border-border bg-surface-raised p-3 sm:p-4">
            {formError ? (
              <p role="alert" className="mb-2 text-xs font-medium text-red-700 dark:text-red-300">
                {formError}
              </p>
            ) : null}
            <div className="flex items-end gap-2">
              <label htmlFor="pg-message" className="sr-only">
                Message
              </label>
              <textarea
                id="pg-message"
                rows={2}
                value={input}
                onChange={(e) => setInput(e.target.value)}
                onKeyDown={onKeyDown}
                placeholder="Send a message"
                aria-describedby="pg-message-keys"
                className="block max-h-48 min-h-11 flex-1 resize-y rounded-xl border border-border-strong bg-background px-3 py-2.5 text-sm leading-6 text-foreground placeholder:text-muted focus-visible:outline-2 focus-visible:outline-ring"
              />
              {chat.streaming ? (
                <Button variant="secondary" onClick={chat.stop} className="h-11">
                  <Icon name="stop" className="size-4" /> Stop
                </Button>
              ) : (
                <Button type="submit" className="h-11" disabled={!input.trim() || !models.data}>
                  <Icon name="send" className="size-4" /> Send
                </Button>
              )}
            </div>
            {/* Keyboard help for keyboards; on a phone it would crowd the box and mean little. */}
            <p id="pg-message-keys" className="mt-1.5 hidden text-xs text-muted sm:block">
              Enter sends, Shift+Enter starts a new line
            </p>
          </form>
        </section>
        <aside aria-label="Settings" className="h-fit rounded-2xl border border-border bg-surface-raised p-5 shadow-xs lg:order-none">
          <h2 className="mb-4 text-sm font-semibold text-foreground">Settings</h2>
          {models.isPending ? (
            <LoadingBlock label="Loading models" />
          ) : models.isError ? (
            <ErrorState message={errorMessage(models.error)} onRetry={() => models.refetch()} />
          ) : (
            <SettingsPanel models={chatModels} settings={settings} onChange={setSettings} toolsError={tools.error} />
          )}
        </aside>
      </div>
    </div>
  );
}
