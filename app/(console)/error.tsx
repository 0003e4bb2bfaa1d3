'use client';

// A page of the console failed to render: say so inside the shell and offer to try again.
import { Button, ButtonLink } from '@/components/ui/button';

export default function ConsoleError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-2xl border border-border bg-surface-raised p-8 text-center shadow-xs">
      <h1 className="text-lg font-semibold text-foreground">This page could not be shown</h1>
      <p className="mt-2 text-sm leading-6 text-muted">Something went wrong on our side. Try again, or go back to the overview.</p>
      <div className="mt-6 flex justify-center gap-3">
        <Button onClick={() => retry()}>Try again</Button>
        <ButtonLink href="/overview" variant="secondary">
          Overview
        </ButtonLink>
      </div>
    </div>
  );
}
