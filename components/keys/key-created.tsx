'use client';

// The one moment the secret exists outside the caller's own storage. Focus lands on the key (selected, ready
// to copy). The "try it" request uses a model that works for this account on this server and that the
// balance covers (server/catalog/list-models-for-account.ts); picking one the balance cannot cover says so
// before the command is copied.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CopyField } from '@/components/console/copy-field';
import { SelectField } from '@/components/console/fields';
import { formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { CodeBlock } from '@/components/ui/code-block';
import { pickTryItModel, tryItBody } from '@/server/catalog/try-it-request';

type Created = RouterOutputs['apiKeys']['create'];

export function tryItCurl(origin: string, key: string, model: string): string {
  return [
    `curl ${origin}/api/v1/chat/completions \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${JSON.stringify(tryItBody(model))}'`,
  ].join('\n');
}

export function KeyCreated({ created, onDone, notice }: { created: Created; onDone: () => void; notice?: string }) {
  const trpc = useTRPC();
  const models = useQuery(trpc.models.forAccount.queryOptions());
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const allowed = created.apiKey.allowed_models;
  // Chat models this key may call (its own allow-list, when it has one), usable ones first.
  const choices = (models.data?.data ?? []).filter((m) => m.kind === 'chat' && (allowed.length === 0 || allowed.includes(m.id)));
  const usable = choices.filter((m) => m.usability.usable);
  const [picked, setPicked] = useState<string | null>(null);
  const model = picked ?? (models.data ? pickTryItModel(choices, models.data.default_model) : null);
  const chosen = choices.find((m) => m.id === model);
  const echo = usable.find((m) => m.id === 'switchboard/echo' && m.trial.covered);

  return (
    <div className="space-y-5">
      <Notice tone="warning">{notice ?? 'You won’t be able to see this key again. If you lose it, delete it and create a new one.'}</Notice>
      <div>
        <p className="mb-1.5 text-sm font-medium text-foreground">{created.apiKey.name}</p>
        <CopyField value={created.key} label="API key" autoFocus />
      </div>
      {model === null ? null : (
        <div className="space-y-3">
          {usable.length > 1 ? (
            <SelectField id="try-it-model" label="Model for the first request" value={model} onChange={(e) => setPicked(e.target.value)}>
              {usable.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                  {m.trial.covered ? '' : ' (balance too low)'}
                </option>
              ))}
            </SelectField>
          ) : null}
          {chosen && !chosen.usability.usable ? (
            <Notice tone="warning" title={`${chosen.id} cannot be used here`}>
              {chosen.usability.message}
            </Notice>
          ) : chosen && !chosen.trial.covered ? (
            <Notice tone="warning" title="Your balance cannot cover this request" action={<Link href="/billing?from=%2Fkeys#buy-credits" className="font-medium underline underline-offset-4">Buy credits</Link>}>
              A request to {chosen.id} holds up to {formatUsd(chosen.trial.reserved)} while it runs, and this account&apos;s balance is lower: the command below would answer 402.
              {echo && echo.id !== chosen.id ? <> Try <code className="font-mono text-xs">switchboard/echo</code> instead, which is free.</> : null}
            </Notice>
          ) : null}
          <CodeBlock title="Try it" language="shell" code={tryItCurl(origin, created.key, model)} className="text-xs" />
        </div>
      )}
      <div className="flex justify-end border-t border-border pt-5">
        <Button onClick={onDone}>I&apos;ve saved my key</Button>
      </div>
    </div>
  );
}
