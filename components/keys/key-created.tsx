'use client';

import { CodeBlock } from '@/components/ui/code-block';
import { CopyField } from '@/components/console/copy-field';
import { Notice } from '@/components/console/notice';
import type { RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

/**
 * The one moment the secret exists outside the caller's own storage. Focus moves to the key itself (the form
 * that had focus is gone), so keyboard and screen-reader users land on what they must copy.
 */
export function KeyCreated({ created, onDone, notice }: { created: RouterOutputs['apiKeys']['create']; onDone: () => void; notice?: string }) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const model = created.apiKey.allowed_models[0] ?? 'switchboard/echo';
  const curl = [
    `curl ${origin}/api/v1/chat/completions \\`,
    `  -H "Authorization: Bearer ${created.key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"model":"${model}","messages":[{"role":"user","content":"Hello!"}]}'`,
  ].join('\n');
  return (
    <div className="space-y-5">
      <Notice tone="warning">{notice ?? 'You won’t be able to see this key again. If you lose it, delete it and create a new one.'}</Notice>
      <div>
        <p className="mb-1.5 text-sm font-medium text-foreground">{created.apiKey.name}</p>
        <CopyField value={created.key} label="API key" autoFocus />
      </div>
      <CodeBlock title="Try it" language="shell" code={curl} className="text-xs" />
      <div className="flex justify-end border-t border-border pt-5">
        <Button onClick={onDone}>I&apos;ve saved my key</Button>
      </div>
    </div>
  );
}
