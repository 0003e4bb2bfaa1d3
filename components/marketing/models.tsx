import type { ModelUsability } from '@/server/catalog/model-usability';
import { SectionHeading } from './section-heading';

const models = [
  { id: 'anthropic/claude-sonnet-4.5', provider: 'Anthropic', note: 'Frontier reasoning and coding, long context.', dot: 'bg-orange-400' },
  { id: 'openai/gpt-4o-mini', provider: 'OpenAI', note: 'Fast and inexpensive for everyday tasks.', dot: 'bg-emerald-500' },
  { id: 'google/gemini-2.5-flash', provider: 'Google', note: 'Low latency with a very large context window.', dot: 'bg-sky-500' },
  { id: 'deepseek/deepseek-chat', provider: 'DeepSeek', note: 'Strong open-weights chat at a low price.', dot: 'bg-blue-600' },
  {
    id: 'switchboard/echo',
    provider: 'Switchboard',
    note: 'Answers instantly with your own prompt and never calls a provider — wire up your client and tests with it.',
    dot: 'bg-accent',
  },
  {
    id: 'your-provider/any-model',
    provider: 'Bring your own',
    note: 'Register any OpenAI-compatible endpoint and it is served under its own prefix.',
    dot: 'bg-zinc-400',
  },
];

/** `usability`: per model id, whether this server can serve it; those it cannot are marked, not offered. */
export function Models({ usability = {} }: { usability?: Record<string, ModelUsability> }) {
  return (
    <section id="models" aria-labelledby="models-heading" className="scroll-mt-20 border-y border-border bg-surface">
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6 sm:py-28 lg:px-8">
        <SectionHeading id="models-heading" eyebrow="Models" title="Switch providers by changing one string">
          Every model is addressed as <code className="font-mono text-[0.9em] text-foreground">provider/model</code>. The
          request, the response, the key and the bill stay the same.
        </SectionHeading>
        <ul className="mt-14 grid gap-px overflow-hidden rounded-2xl border border-border bg-border sm:grid-cols-2 lg:grid-cols-3">
          {models.map((model) => {
            const u = usability[model.id];
            return (
            <li key={model.id} className="bg-surface-raised p-6" data-usable={u ? u.usable : undefined}>
              <p className="flex items-center gap-2 text-sm font-medium text-muted">
                <span aria-hidden="true" className={`size-2 rounded-full ${model.dot}`} />
                {model.provider}
              </p>
              <p className="mt-3 font-mono text-sm font-semibold break-all text-foreground">{model.id}</p>
              <p className="mt-2 text-sm leading-6 text-muted">{model.note}</p>
              {u && !u.usable ? (
                <p className="mt-3 inline-flex items-center gap-1.5 rounded-md bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-600/25 ring-inset dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-400/20">
                  Not available on this server
                </p>
              ) : null}
            </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
